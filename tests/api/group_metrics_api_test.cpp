// SPDX-License-Identifier: MIT
// The derived-metrics extension (include/pmapi_metrics.h) through its C entry points: a site
// group whose formulas read two syscall tracepoints, counted exactly in the calling thread,
// evaluated to exact values; values without a meaning (division by zero, a missing count, no
// elapsed time, an overflow) are NaN; every bad argument gets its Pmapi_* code.
#include <gtest/gtest.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/settings.h"
#include "catalog/group_catalog.h"
#include "catalog/tables.h"
#include "pmapi_metrics.h"
#include "support/counting.h"
#include "support/site_groups.h"

using namespace pmapi_test;

namespace {

constexpr char kGetpgid[] = "syscalls:sys_enter_getpgid";
constexpr int kUnknownGroupId = 98765;

// Two site groups under $PMAPI_GROUPS_DIR, written before anything reads the groups (the group
// catalog is built once per process): one with formulas over getppid and getpgid, one without.
std::string SiteGroupsText() {
  const std::string ppid = kGetppid, pgid = kGetpgid;
  return "50200 | pm_test_metrics | getppid and getpgid | Test group with formulas.\n"
         "  events " +
         ppid + " " + pgid +
         "\n"
         "  metric ppid_per_pgid = " +
         ppid + " / " + pgid +
         "\n"
         "  metric total = " +
         ppid + " + " + pgid +
         "\n"
         "  metric ppid_per_second = " +
         ppid +
         " / time\n"
         "  metric overflow = " +
         ppid +
         " * 1e308 * 1e308\n"
         "50201 | pm_test_no_metrics | getppid | Test group without formulas.\n"
         "  events " +
         ppid + "\n";
}
::testing::Environment *const g_site_groups =
    ::testing::AddGlobalTestEnvironment(new pmapi_test::SiteGroupTable(SiteGroupsText()));

int GroupId(const char *short_name) {
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName(short_name);
  return group ? group->id : -1;
}

void CallGetpgid(long n) {
  for (long i = 0; i < n; ++i) syscall(SYS_getpgid, 0);
}

// Counts `ppid` getppid and `pgid` getpgid calls in the calling thread with the test group
// programmed by id (mode.b.is_group); fills accu[0..1].
void CountCalls(int group_id, long ppid, long pgid, long long accu[2]) {
  pm_prog_t prog = MakeProgram({group_id}, PM_USER | PM_KERNEL);
  prog.mode.b.is_group = 1;
  int rc = pm_set_program_mythread(&prog);
  ASSERT_EQ(rc, 0) << pm_strerror("pm_set_program_mythread", rc);
  ASSERT_EQ(pm_start_mythread(), 0);
  CallGetppid(ppid);
  CallGetpgid(pgid);
  ASSERT_EQ(pm_stop_mythread(), 0);
  pm_data_t data;
  ASSERT_EQ(pm_get_data_mythread(&data), 0);
  ASSERT_EQ(pm_delete_program_mythread(), 0);
  accu[0] = data.accu[0];
  accu[1] = data.accu[1];
}

// Runs first (declaration order): nothing has initialized the library in this process yet.
TEST(group_metrics_api, BeforeInitializationEveryCallIsNoInit) {
  pm_group_metrics_t info;
  EXPECT_EQ(pm_get_group_metrics(0, &info), Pmapi_NoInit);
  EXPECT_NE(std::string(pm_strerror("pm_get_group_metrics", Pmapi_NoInit)).find("pm_initialize"),
            std::string::npos);
  double value = 0;
  long long counts[2] = {1, 1};
  EXPECT_EQ(pm_evaluate_group_metrics(0, counts, 2, 1.0, &value, 1), Pmapi_NoInit);
}

TEST(group_metrics_api, DescribesTheSiteGroupsFormulas) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0) << "the site group is listed";
  pm_group_metrics_t info;
  ASSERT_EQ(pm_get_group_metrics(id, &info), 0);
  EXPECT_EQ(info.group_id, id);
  EXPECT_EQ(info.members, 2);
  ASSERT_EQ(info.maxmetrics, 4);
  ASSERT_NE(info.metrics, nullptr);
  const char *names[] = {"ppid_per_pgid", "total", "ppid_per_second", "overflow"};
  const int uses_time[] = {0, 0, 1, 0};
  for (int m = 0; m < 4; ++m) {
    EXPECT_STREQ(info.metrics[m].name, names[m]);
    EXPECT_STREQ(info.metrics[m].unit, "");
    EXPECT_EQ(info.metrics[m].uses_time, uses_time[m]) << names[m];
  }
  EXPECT_EQ(std::string(info.metrics[0].formula),
            std::string(kGetppid) + " / " + std::string(kGetpgid));
  // The same storage every time: clients may keep the pointers.
  pm_group_metrics_t again;
  ASSERT_EQ(pm_get_group_metrics(id, &again), 0);
  EXPECT_EQ(again.metrics, info.metrics);
  EXPECT_EQ(again.metrics[2].name, info.metrics[2].name);
}

TEST(group_metrics_api, ShippedGroupCarriesItsFormulas) {
  if (!InitializeAll()) return;
  // pm_basic is group 0 on every machine (groups/README.md): IPC, CPI, GHz.
  pm_group_metrics_t info;
  ASSERT_EQ(pm_get_group_metrics(0, &info), 0);
  ASSERT_EQ(info.maxmetrics, 3);
  EXPECT_STREQ(info.metrics[0].name, "IPC");
  EXPECT_STREQ(info.metrics[2].name, "GHz");
  EXPECT_EQ(info.metrics[0].uses_time, 0);
  EXPECT_EQ(info.metrics[2].uses_time, 1);  // "PM_CYC / time / 1e9": 1e9 is no name
  long long counts[2] = {3000, 1500};       // PM_CYC, PM_INST_CMPL
  double values[3];
  ASSERT_EQ(pm_evaluate_group_metrics(0, counts, 2, 1e-6, values, 3), 0);
  EXPECT_EQ(values[0], 0.5);
  EXPECT_EQ(values[1], 2.0);
  EXPECT_DOUBLE_EQ(values[2], 3.0);
}

TEST(group_metrics_api, EvaluatesExactlyFromTracepointCounts) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  long long accu[2] = {0, 0};
  CountCalls(id, 1300, 100, accu);
  ASSERT_EQ(accu[0], 1300);
  ASSERT_EQ(accu[1], 100);
  double values[4] = {-1, -1, -1, -1};
  ASSERT_EQ(pm_evaluate_group_metrics(id, accu, 2, 2.0, values, 4), 0);
  EXPECT_EQ(values[0], 13.0);
  EXPECT_EQ(values[1], 1400.0);
  EXPECT_EQ(values[2], 650.0);
  EXPECT_TRUE(isnan(values[3])) << "an infinity is no value: " << values[3];
}

TEST(group_metrics_api, DivisionByZeroIsNaNAndTheOthersStillCount) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  long long accu[2] = {0, 0};
  CountCalls(id, 500, 0, accu);
  ASSERT_EQ(accu[0], 500);
  ASSERT_EQ(accu[1], 0);
  double values[3];
  ASSERT_EQ(pm_evaluate_group_metrics(id, accu, 2, 0.5, values, 3), 0);
  EXPECT_TRUE(isnan(values[0])) << values[0];
  EXPECT_EQ(values[1], 500.0);
  EXPECT_EQ(values[2], 1000.0);
  // A zero elapsed time is a division by zero too.
  ASSERT_EQ(pm_evaluate_group_metrics(id, accu, 2, 0.0, values, 3), 0);
  EXPECT_TRUE(isnan(values[2])) << values[2];
}

TEST(group_metrics_api, MissingCountsAndTimeGiveNaNOnlyWhereRead) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  long long counts[2] = {40, 8};
  double values[3];
  // Only the first member's count: the formulas reading getpgid have no value.
  ASSERT_EQ(pm_evaluate_group_metrics(id, counts, 1, 4.0, values, 3), 0);
  EXPECT_TRUE(isnan(values[0]));
  EXPECT_TRUE(isnan(values[1]));
  EXPECT_EQ(values[2], 10.0);
  // No counts at all.
  ASSERT_EQ(pm_evaluate_group_metrics(id, nullptr, 0, 4.0, values, 3), 0);
  EXPECT_TRUE(isnan(values[0]) && isnan(values[1]) && isnan(values[2]));
  // Elapsed time not known (negative or NaN): only the formula with time has no value.
  for (double unknown : {-1.0, static_cast<double>(NAN)}) {
    ASSERT_EQ(pm_evaluate_group_metrics(id, counts, 2, unknown, values, 3), 0);
    EXPECT_EQ(values[0], 5.0);
    EXPECT_EQ(values[1], 48.0);
    EXPECT_TRUE(isnan(values[2])) << unknown;
  }
  // Counts past the members are ignored.
  long long more[MAX_COUNTERS] = {40, 8, 999, 999, 999, 999, 999, 999};
  ASSERT_EQ(pm_evaluate_group_metrics(id, more, MAX_COUNTERS, 4.0, values, 3), 0);
  EXPECT_EQ(values[1], 48.0);
}

TEST(group_metrics_api, WritesOnlyTheValuesAskedFor) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  long long counts[2] = {30, 10};
  double values[4] = {-7, -7, -7, -7};
  ASSERT_EQ(pm_evaluate_group_metrics(id, counts, 2, 1.0, values, 2), 0);
  EXPECT_EQ(values[0], 3.0);
  EXPECT_EQ(values[1], 40.0);
  EXPECT_EQ(values[2], -7);
  EXPECT_EQ(values[3], -7);
  ASSERT_EQ(pm_evaluate_group_metrics(id, counts, 2, 1.0, nullptr, 0), 0);
}

TEST(group_metrics_api, GroupWithoutFormulasHasNoMetrics) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_no_metrics");
  ASSERT_GE(id, 0);
  pm_group_metrics_t info;
  ASSERT_EQ(pm_get_group_metrics(id, &info), 0);
  EXPECT_EQ(info.members, 1);
  EXPECT_EQ(info.maxmetrics, 0);
  EXPECT_EQ(info.metrics, nullptr);
  long long count = 5;
  double value = -7;
  ASSERT_EQ(pm_evaluate_group_metrics(id, &count, 1, 1.0, &value, 1), 0);
  EXPECT_EQ(value, -7) << "nothing to write";
}

TEST(group_metrics_api, BadArgumentsGetTheirCodesAndLeaveTheOutputAlone) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  EXPECT_EQ(pm_get_group_metrics(id, nullptr), Pmapi_InvalidArg);
  pm_group_metrics_t info;
  info.group_id = 4242;
  info.metrics = nullptr;
  int listed = static_cast<int>(pmapi::GroupCatalog::Get().id_limit());
  for (int bad : {-1, listed, kUnknownGroupId, INT32_MIN}) {
    EXPECT_EQ(pm_get_group_metrics(bad, &info), Pmapi_InvalidGroup) << bad;
    std::string message = pm_strerror("pm_get_group_metrics", Pmapi_InvalidGroup);
    EXPECT_NE(message.find("event-group id " + std::to_string(bad)), std::string::npos) << message;
    double value = -7;
    long long count = 1;
    EXPECT_EQ(pm_evaluate_group_metrics(bad, &count, 1, 1.0, &value, 1), Pmapi_InvalidGroup);
    EXPECT_EQ(value, -7);
  }
  EXPECT_EQ(info.group_id, 4242) << "left as it was";
  long long counts[2] = {1, 1};
  double values[4] = {-7, -7, -7, -7};
  EXPECT_EQ(pm_evaluate_group_metrics(id, nullptr, 2, 1.0, values, 4), Pmapi_InvalidArg);
  EXPECT_EQ(pm_evaluate_group_metrics(id, counts, 2, 1.0, nullptr, 4), Pmapi_InvalidArg);
  EXPECT_EQ(pm_evaluate_group_metrics(id, counts, -1, 1.0, values, 4), Pmapi_InvalidArg);
  EXPECT_EQ(pm_evaluate_group_metrics(id, counts, 2, 1.0, values, -1), Pmapi_InvalidArg);
  EXPECT_NE(std::string(pm_strerror("pm_evaluate_group_metrics", Pmapi_InvalidArg))
                .find("may not be negative"),
            std::string::npos);
  EXPECT_EQ(values[0], -7) << "nothing written on error";
}

TEST(group_metrics_api, ConcurrentFirstCallsSeeTheSameStorage) {
  if (!InitializeAll()) return;
  int id = GroupId("pm_test_metrics");
  ASSERT_GE(id, 0);
  std::vector<const pm_metric_t *> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&seen, t, id] {
      pm_group_metrics_t info;
      if (pm_get_group_metrics(id, &info) == 0) seen[t] = info.metrics;
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (const pm_metric_t *metrics : seen) {
    EXPECT_NE(metrics, nullptr);
    EXPECT_EQ(metrics, seen[0]);
  }
}

}  // namespace
