// SPDX-License-Identifier: MIT
// hpmcount -a: the tasks of a job each leave their counts, and the task that completes the set
// writes the aggregate (src/tools/hpm/task_aggregate.h). Its execution time is the job's: the
// longest task's, not the mean of the tasks' times.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/scratch_dir.h"
#include "task_aggregate.h"

namespace aix {
namespace {

HpmReport TaskReport(double wall_seconds, unsigned long long getppid_calls) {
  HpmReport report;
  report.workload = "work";
  report.wall_seconds = wall_seconds;
  report.mode = "user";
  SetResult set;
  EventLine event;
  event.name = "syscalls:sys_enter_getppid";
  event.value = getppid_calls;
  set.events.push_back(event);
  report.sets.push_back(set);
  return report;
}

std::string Text(const std::string &path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(HpmAggregate, ExecutionTimeIsTheLongestTasksNotTheMean) {
  pmapi_test::ScratchDir dir("hpm_aggregate.");
  TaskIdentity task;
  task.size = 3;
  task.job = "job7";
  // Task 1 ran 4 s, the others 1 s: the mean is 2 s, the job took 4.
  const double walls[] = {1.0, 4.0, 1.0};
  std::string aggregate;
  for (int rank = 0; rank < task.size; ++rank) {
    task.rank = rank;
    std::string written;
    ASSERT_EQ(AddToAggregate(dir.path(), task, TaskReport(walls[rank], 100 * (rank + 1)), &written),
              "");
    if (!written.empty()) aggregate = written;
  }
  ASSERT_EQ(aggregate, dir.File("hpm_log.job7")) << "the last task writes the aggregate";
  const std::string text = Text(aggregate);
  EXPECT_NE(text.find(" Aggregate of 3 tasks (job job7)\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" Execution time (wall clock time): 4.000000 seconds\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("min 100 (task 0), max 300 (task 2)"), std::string::npos) << text;
}

}  // namespace
}  // namespace aix
