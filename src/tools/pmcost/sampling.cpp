#include "sampling.h"

#include <pmapi.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

std::vector<double> SampleColdInitialize(int runs) {
  std::vector<double> ns;
  for (int i = 0; i < runs; ++i) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    pid_t child = fork();
    if (child == 0) {
      dup2(fds[1], 3);
      setenv(kColdChildVariable, "1", 1);
      execl("/proc/self/exe", "pmcost", static_cast<char *>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    double elapsed = -1;
    if (read(fds[0], &elapsed, sizeof elapsed) != sizeof elapsed) elapsed = -1;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    if (child < 0 || elapsed < 0) return {};
    ns.push_back(elapsed);
  }
  return ns;
}

int RunColdInitializeChild() {
  pm_info2_t info;
  pm_groups_info_t groups;
  double start = NowNs();
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                         PM_CURRENT);
  double elapsed = rc == 0 ? NowNs() - start : -1;
  return write(3, &elapsed, sizeof elapsed) == sizeof elapsed && rc == 0 ? 0 : 1;
}
