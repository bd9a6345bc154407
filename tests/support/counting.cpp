#include "support/counting.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "core/tracepoint_anchors.h"

namespace pmapi_test {

bool InitializeAll() {
  struct stat st;
  if (stat("/sys/kernel/tracing/events", &st) != 0 && geteuid() == 0) {
    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
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

pm_prog_t MakeProgram(std::initializer_list<int> ids, int mode) {
  pm_prog_t prog = {};
  prog.mode.w = mode;
  for (int &event : prog.events) event = COUNT_NOTHING;
  int counter = 0;
  for (int id : ids) prog.events[counter++] = id;
  return prog;
}

void CallGetppid(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getppid);
}

bool DropToNobody() {
  const passwd *nobody = getpwnam("nobody");
  if (!nobody) return false;
  return setgid(nobody->pw_gid) == 0 && setuid(nobody->pw_uid) == 0;
}

int CountPerfDescriptors() {
  int count = 0;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  while (dirent *entry = readdir(dir)) {
    char path[PATH_MAX], target[PATH_MAX] = {0};
    snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n > 0 && std::string(target, n).find("perf_event") != std::string::npos &&
        !pmapi::IsTracepointAnchorFd(atoi(entry->d_name))) {
      ++count;
    }
  }
  closedir(dir);
  return count;
}

}  // namespace pmapi_test
