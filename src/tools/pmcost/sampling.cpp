// SPDX-License-Identifier: MIT
#include "sampling.h"

#include <pmapi.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

extern char **environ;

namespace {

// This process's environment plus the variable that makes the child measure, built before the
// fork: the child only execs, and the parent's own environment stays as it was.
std::vector<char *> ChildEnvironment(std::string *marker) {
  *marker = std::string(kColdChildVariable) + "=1";
  std::vector<char *> envp;
  for (char **variable = environ; variable && *variable; ++variable) envp.push_back(*variable);
  envp.push_back(&(*marker)[0]);
  envp.push_back(nullptr);
  return envp;
}

}  // namespace

std::vector<double> SampleColdInitialize(int runs) {
  std::vector<double> ns;
  std::string marker;
  std::vector<char *> envp = ChildEnvironment(&marker);
  char name[] = "pmcost";
  char *argv[] = {name, nullptr};
  for (int i = 0; i < runs; ++i) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    pid_t child = fork();
    if (child == 0) {
      dup2(fds[1], 3);
      execve("/proc/self/exe", argv, envp.data());
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
