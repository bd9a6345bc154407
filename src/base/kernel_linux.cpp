// SPDX-License-Identifier: MIT
// The real kernel behind the seam.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "base/kernel.h"

namespace pmapi {
namespace {

void Describe(const struct stat &st, FileStat *info) {
  info->owner = st.st_uid;
  info->mode = st.st_mode;
  info->size = st.st_size;
  info->modified = st.st_mtime;
}

class LinuxKernel final : public Kernel {
 public:
  int PerfEventOpen(const perf_event_attr &attr, pid_t pid, int cpu, int group_fd) override {
    long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
    return fd < 0 ? -errno : static_cast<int>(fd);
  }

  int PerfEventOpenCgroup(const perf_event_attr &attr, const std::string &cgroup_dir, int cpu,
                          int group_fd) override {
    const int dir = open(cgroup_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return -errno;
    long fd = syscall(SYS_perf_event_open, &attr, dir, cpu, group_fd,
                      PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP);
    const int err = errno;
    close(dir);
    return fd < 0 ? -err : static_cast<int>(fd);
  }

  int Ioctl(int fd, unsigned long request, unsigned long arg) override {
    return ioctl(fd, request, arg) < 0 ? -errno : 0;
  }

  // The bare system call, not glibc's read(): that one is a cancellation point, and in a
  // process that has ever had a second thread it brackets the call with two atomic updates of
  // the thread's cancellation state, ~10% of a counter read here. A counter read is no place
  // for a pthread_cancel to land anyway: it would unwind through the library.
  ssize_t Read(int fd, void *buf, size_t size) override {
    long n;
    do {
      n = syscall(SYS_read, fd, buf, size);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : static_cast<ssize_t>(n);
  }

  int Close(int fd) override { return close(fd) < 0 ? -errno : 0; }

  ssize_t ReadInto(const char *path, char *buf, size_t size) override {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    const ssize_t n = read(fd, buf, size);
    const int err = errno;
    close(fd);
    return n < 0 ? -err : n;
  }

  int ReadFile(const std::string &path, std::string *contents) override {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    contents->clear();
    // Regular files (the catalog cache, ~300 KB) are read in one call into a buffer of their
    // size; sysfs, procfs and tracefs report a size of 0 or 4096 whatever they hold, so the
    // buffer still doubles until end of file.
    struct stat info;
    size_t capacity = 4096;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
      capacity = static_cast<size_t>(info.st_size) + 1;  // +1: room for the read that sees EOF
    }
    contents->resize(capacity);
    size_t used = 0;
    for (;;) {
      if (used == contents->size()) contents->resize(used * 2);
      ssize_t n = read(fd, &(*contents)[used], contents->size() - used);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int err = errno;
        close(fd);
        contents->clear();
        return -err;
      }
      if (n == 0) break;
      used += static_cast<size_t>(n);
    }
    contents->resize(used);
    close(fd);
    return 0;
  }

  int ListDirectory(const std::string &path, std::vector<std::string> *names) override {
    DIR *dir = opendir(path.c_str());
    if (!dir) return -errno;
    names->clear();
    while (dirent *entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..") names->push_back(std::move(name));
    }
    closedir(dir);
    return 0;
  }

  int Access(const std::string &path, int mode) override {
    return access(path.c_str(), mode) < 0 ? -errno : 0;
  }

  int Stat(const std::string &path, FileStat *info) override {
    struct stat st;
    if (stat(path.c_str(), &st) < 0) return -errno;
    Describe(st, info);
    return 0;
  }

  int MapFile(const std::string &path, const char **data, size_t *size, FileStat *info) override {
    // O_NONBLOCK: a FIFO at `path` would otherwise wait for a writer; it is refused below.
    int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct stat st;
    if (fstat(fd, &st) < 0) {
      int err = errno;
      close(fd);
      return -err;
    }
    Describe(st, info);
    *data = nullptr;
    *size = 0;
    if (!S_ISREG(st.st_mode)) {
      close(fd);
      return -EINVAL;
    }
    if (st.st_size > 0) {
      void *mapped = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (mapped == MAP_FAILED) {
        int err = errno;
        close(fd);
        return -err;
      }
      *data = static_cast<const char *>(mapped);
      *size = static_cast<size_t>(st.st_size);
    }
    close(fd);  // the mapping keeps the file
    return 0;
  }

  void UnmapFile(const char *data, size_t size) override {
    if (data) munmap(const_cast<char *>(data), size);
  }

  int MakeDirectory(const std::string &path, mode_t mode) override {
    return mkdir(path.c_str(), mode) < 0 ? -errno : 0;
  }

  int WriteNewFile(const std::string &path, const std::string &contents, mode_t mode) override {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0) return -errno;
    size_t done = 0;
    while (done < contents.size()) {
      ssize_t n = write(fd, contents.data() + done, contents.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        int err = n < 0 ? errno : EIO;
        close(fd);
        return -err;
      }
      done += static_cast<size_t>(n);
    }
    return close(fd) < 0 ? -errno : 0;
  }

  int Rename(const std::string &from, const std::string &to) override {
    return rename(from.c_str(), to.c_str()) < 0 ? -errno : 0;
  }

  int Unlink(const std::string &path) override { return unlink(path.c_str()) < 0 ? -errno : 0; }

  int WriteFileAtomically(const std::string &path, const std::string &contents,
                          mode_t mode) override {
    // Unique per process and call, so that concurrent writers never share a temporary file.
    static std::atomic<unsigned> sequence{0};
    const std::string temporary =
        path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(sequence.fetch_add(1));
    int err = WriteNewFile(temporary, contents, mode);
    if (err == -EEXIST) return err;  // not ours to remove
    if (err == 0 && rename(temporary.c_str(), path.c_str()) == 0) return 0;
    if (err == 0) err = -errno;
    unlink(temporary.c_str());
    return err;
  }

  int MapPerfPage(int fd, const perf_event_mmap_page **page) override {
    // One page and no ring buffer: the kernel allows that read-only.
    void *mapped = mmap(nullptr, PageSize(), PROT_READ, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) return -errno;
    *page = static_cast<const perf_event_mmap_page *>(mapped);
    return 0;
  }

  void UnmapPerfPage(const perf_event_mmap_page *page) override {
    if (page) munmap(const_cast<perf_event_mmap_page *>(page), PageSize());
  }

  int MapRing(int fd, size_t size, void **ring) override {
    void *mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) return -errno;
    *ring = mapped;
    return 0;
  }

  void UnmapRing(void *ring, size_t size) override {
    if (ring) munmap(ring, size);
  }

  uint64_t ReadPmc(uint32_t counter) override {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t low, high;
    asm volatile("rdpmc" : "=a"(low), "=d"(high) : "c"(counter));
    return (static_cast<uint64_t>(high) << 32) | low;
#elif defined(__aarch64__)
    // What the kernel's PMUSERENR_EL0 (ER, CR) lets EL0 read; the page's sequence lock catches
    // a migration between selecting the counter and reading it.
    uint64_t value;
    if (counter == 31) {
      asm volatile("mrs %0, pmccntr_el0" : "=r"(value));
      return value;
    }
    asm volatile("msr pmselr_el0, %0\n\tisb" : : "r"(static_cast<uint64_t>(counter)) : "memory");
    asm volatile("mrs %0, pmxevcntr_el0" : "=r"(value));
    return value;
#else
    (void)counter;
    return 0;
#endif
  }

  uint64_t ReadTimestamp() override {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t low, high;
    asm volatile("rdtsc" : "=a"(low), "=d"(high));
    return (static_cast<uint64_t>(high) << 32) | low;
#elif defined(__aarch64__)
    uint64_t value;
    asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(value) : : "memory");
    return value;
#else
    return 0;
#endif
  }

 private:
  static size_t PageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
};

LinuxKernel g_linux_kernel;
Kernel *g_kernel = &g_linux_kernel;

}  // namespace

Kernel &CurrentKernel() { return *g_kernel; }

void ReadPerfEventParanoid(char *level, size_t size) {
  if (size == 0) return;
  char text[16] = "unknown";
  const ssize_t n =
      CurrentKernel().ReadInto("/proc/sys/kernel/perf_event_paranoid", text, sizeof text - 1);
  if (n > 0) {
    size_t end = static_cast<size_t>(n);
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) --end;
    text[end] = '\0';
  }
  if (n <= 0 || text[0] == '\0') memcpy(text, "unknown", sizeof "unknown");
  const size_t length = strnlen(text, size - 1);
  memcpy(level, text, length);
  level[length] = '\0';
}
Kernel &RealKernel() { return g_linux_kernel; }
void SetKernelForTesting(Kernel *kernel) { g_kernel = kernel ? kernel : &g_linux_kernel; }

}  // namespace pmapi
