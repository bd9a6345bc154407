#include "background_release.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pmcount {
namespace {

constexpr char kPerfEventLink[] = "anon_inode:[perf_event]";
constexpr int kMaxDescriptors = 4096;

// fork(2) without the pthread_atfork handlers: libpmapi's child handler closes every counter
// descriptor in a forked child (a child must not share its parent's contexts), which is right
// for programs and exactly wrong here. Only raw system calls follow in the child.
pid_t RawFork() { return static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0)); }

[[noreturn]] void Exit(int status) {
  syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

// In the holder: closes every descriptor that is not a perf event (so that no pipe or
// terminal waits for it), except `keep`. No allocation: the parent may have held a lock.
void KeepOnlyPerfEvents(int keep) {
  const int dir = static_cast<int>(syscall(SYS_open, "/proc/self/fd", O_RDONLY | O_DIRECTORY));
  if (dir < 0) return;
  int others[kMaxDescriptors];
  int count = 0;
  char buffer[8192];
  while (true) {
    const long n = syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long offset = 0; offset < n;) {
      const struct dirent64 *entry = reinterpret_cast<const struct dirent64 *>(buffer + offset);
      offset += entry->d_reclen;
      int fd = 0;
      bool number = entry->d_name[0] != '\0';
      for (const char *c = entry->d_name; *c; ++c) {
        if (*c < '0' || *c > '9') number = false;
        fd = fd * 10 + (*c - '0');
      }
      if (!number || fd == dir || fd == keep) continue;
      char target[64];
      const long length = syscall(SYS_readlinkat, dir, entry->d_name, target, sizeof target - 1);
      const bool perf = length == static_cast<long>(sizeof kPerfEventLink) - 1 &&
                        memcmp(target, kPerfEventLink, sizeof kPerfEventLink - 1) == 0;
      if (!perf && count < kMaxDescriptors) others[count++] = fd;
    }
  }
  for (int i = 0; i < count; ++i) syscall(SYS_close, others[i]);
  syscall(SYS_close, dir);
}

}  // namespace

bool BackgroundRelease::Begin() {
  int release[2];
  if (pipe2(release, O_CLOEXEC) != 0) return false;
  const pid_t child = RawFork();
  if (child < 0) {
    close(release[0]);
    close(release[1]);
    return false;
  }
  if (child == 0) {
    // The middle process exits at once, so the holder belongs to init, not to pmcount.
    if (RawFork() != 0) Exit(0);
    syscall(SYS_setsid);
    syscall(SYS_close, release[1]);
    KeepOnlyPerfEvents(release[0]);
    char byte;
    while (syscall(SYS_read, release[0], &byte, 1) < 0) {
    }
    Exit(0);  // the last references close here, and the kernel waits here
  }
  close(release[0]);
  int status;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  release_fd_ = release[1];
  return true;
}

void BackgroundRelease::End() {
  if (release_fd_ < 0) return;
  close(release_fd_);
  release_fd_ = -1;
}

}  // namespace pmcount
