// SPDX-License-Identifier: MIT
#include "support/counting.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "core/tracepoint_anchors.h"

namespace pmapi_test {

bool InitializeAll() {
  struct stat st;
  if (stat("/sys/kernel/tracing/events", &st) != 0 && geteuid() == 0) {
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
  }
  if (access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", R_OK) != 0 &&
      access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id", R_OK) != 0) {
    // GTEST_SKIP returns from the function it is in: a void lambda, so that this one can
    // return false.
    [] {
      GTEST_SKIP() << "needs a readable tracefs for the syscalls:sys_enter_getppid tracepoint "
                      "(run as root, or mount tracefs readable by this user)";
    }();
    return false;
  }
  pm_info2_t info;
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT, &info, nullptr, PM_CURRENT);
  EXPECT_EQ(rc, 0) << pm_strerror("pm_initialize", rc);
  return rc == 0;
}

int EventId(const std::string &short_name) {
  const pmapi::CatalogEvent *event = pmapi::Catalog::Get().FindName(short_name);
  EXPECT_NE(event, nullptr) << short_name << " is not in the catalog";
  return event ? event->id : COUNT_NOTHING;
}

void CallGetppid(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
}

bool CountGetppidOnMyThread(pm_prog_t *prog, long n, pm_data_t *data) {
  int rc = pm_set_program_mythread(prog);
  if (rc != 0) {
    ADD_FAILURE() << pm_strerror("pm_set_program_mythread", rc);
    return false;
  }
  if ((rc = pm_start_mythread()) != 0) {
    ADD_FAILURE() << pm_strerror("pm_start_mythread", rc);
    return false;
  }
  CallGetppid(n);
  if ((rc = pm_stop_mythread()) != 0) {
    ADD_FAILURE() << pm_strerror("pm_stop_mythread", rc);
    return false;
  }
  if ((rc = pm_get_data_mythread(data)) != 0) {
    ADD_FAILURE() << pm_strerror("pm_get_data_mythread", rc);
    return false;
  }
  return true;
}

void CallRareSyscall(long n) {
  timespec interval;
  for (long i = 0; i < n; ++i) syscall(SYS_sched_rr_get_interval, 0, &interval);
}

bool TouchFreshPages(long pages) {
  const long page = sysconf(_SC_PAGESIZE);
  const size_t length = static_cast<size_t>(pages * page);
  void *map = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return false;
  // A huge page would satisfy 512 of the writes with one fault.
  madvise(map, length, MADV_NOHUGEPAGE);
  volatile char *bytes = static_cast<char *>(map);
  for (long i = 0; i < pages; ++i) bytes[i * page] = 1;
  munmap(map, length);
  return true;
}

bool DropToNobody() {
  const passwd *nobody = getpwnam("nobody");
  if (!nobody) return false;
  return setgid(nobody->pw_gid) == 0 && setuid(nobody->pw_uid) == 0;
}

int CountPerfDescriptors(bool with_anchors) {
  int count = 0;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  while (dirent *entry = readdir(dir)) {
    char path[PATH_MAX], target[PATH_MAX] = {0};
    snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n > 0 && std::string(target, n).find("perf_event") != std::string::npos &&
        (with_anchors || !pmapi::IsTracepointAnchorFd(atoi(entry->d_name)))) {
      ++count;
    }
  }
  closedir(dir);
  return count;
}

}  // namespace pmapi_test
