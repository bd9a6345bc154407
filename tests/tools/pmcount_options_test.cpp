// SPDX-License-Identifier: MIT
// pmcount's command line: what it accepts, and that every bad input is refused with a reason.
#include "options.h"

#include <gtest/gtest.h>

namespace pmcount {
namespace {

std::string Parse(std::vector<std::string> args, Options *options) {
  return ParseOptions(args, options);
}

TEST(PmcountOptions, CommandAfterDashDashOrFirstWord) {
  Options o;
  ASSERT_EQ(Parse({"-e", "task-clock", "--", "ls", "-l"}, &o), "");
  EXPECT_EQ(o.command, (std::vector<std::string>{"ls", "-l"}));
  EXPECT_EQ(o.event_lists, (std::vector<std::string>{"task-clock"}));
  ASSERT_EQ(Parse({"-u", "ls", "-l"}, &o), "");
  EXPECT_EQ(o.command, (std::vector<std::string>{"ls", "-l"}));  // -l belongs to ls
  EXPECT_TRUE(o.user);
  EXPECT_FALSE(o.kernel);
}

TEST(PmcountOptions, ShortBundlesAttachedValuesAndLongForms) {
  Options o;
  ASSERT_EQ(Parse({"-uk", "-etask-clock", "--event=page-faults", "-e", "x", "--", "true"}, &o), "");
  EXPECT_TRUE(o.user && o.kernel);
  EXPECT_EQ(o.event_lists, (std::vector<std::string>{"task-clock", "page-faults", "x"}));
  ASSERT_EQ(Parse({"-aA", "-C0-1", "--stats", "--duration", "0.5"}, &o), "");
  EXPECT_TRUE(o.system_wide);
  EXPECT_EQ(o.aggregation, Aggregation::kPerCpu);
  EXPECT_EQ(o.cpus, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(o.duration_s, 0.5);
  ASSERT_EQ(Parse({"-x;", "-I", "100", "-o", "f", "true"}, &o), "");
  EXPECT_EQ(o.format, Format::kCsv);
  EXPECT_EQ(o.separator, ";");
  EXPECT_EQ(o.interval_ms, 100);
  EXPECT_EQ(o.output_path, "f");
  ASSERT_EQ(Parse({"--json", "--repeat=3", "true"}, &o), "");
  EXPECT_EQ(o.format, Format::kJson);
  EXPECT_EQ(o.repeat, 3);
}

// perf's names: -j and --json-output are perf stat -j's JSON; --json stays pmcount's own.
TEST(PmcountOptions, JsonOptionsFollowPerf) {
  Options o;
  ASSERT_EQ(Parse({"-j", "true"}, &o), "");
  EXPECT_EQ(o.format, Format::kPerfJson);
  ASSERT_EQ(Parse({"--json-output", "-I", "100", "--summary", "true"}, &o), "");
  EXPECT_EQ(o.format, Format::kPerfJson);
  EXPECT_TRUE(o.summary);
  ASSERT_EQ(Parse({"--json", "true"}, &o), "");
  EXPECT_EQ(o.format, Format::kJson);
  EXPECT_EQ(Parse({"-x,", "-j", "true"}, &o),
            "-x and -j cannot be combined: choose one output format");
  EXPECT_EQ(Parse({"--json", "-j", "--json", "true"}, &o),
            "--json and -j cannot be combined: choose one output format");
}

// -M as perf stat's: metric or group names, by commas, alone (not with -e, -g or -T).
TEST(PmcountOptions, MetricsAsPerf) {
  Options o;
  ASSERT_EQ(Parse({"-M", "CPUs_utilized", "true"}, &o), "");
  EXPECT_EQ(o.metrics, (std::vector<std::string>{"CPUs_utilized"}));
  ASSERT_EQ(Parse({"--metrics=CPUs_utilized,page_faults_per_second", "true"}, &o), "");
  EXPECT_EQ(o.metrics, (std::vector<std::string>{"CPUs_utilized", "page_faults_per_second"}));
  EXPECT_TRUE(o.event_lists.empty() && o.group.empty());
  EXPECT_EQ(Parse({"-M", "a,,b", "true"}, &o),
            "an empty name in -M 'a,,b' (two commas, or a comma at an end?)");
  const std::string alone =
      "-M cannot be combined with -e, -g or -T: -M NAME counts the group that defines the "
      "metric (or the group NAME) and shows its metrics";
  EXPECT_EQ(Parse({"-M", "IPC", "-e", "task-clock", "true"}, &o), alone);
  EXPECT_EQ(Parse({"-M", "IPC", "-g", "pm_basic", "true"}, &o), alone);
}

// perf's -p, -t, --per-thread, --interval-count and -D; -t meant seconds before, and a
// duration given to it says where the duration went.
TEST(PmcountOptions, AttachAsPerf) {
  Options o;
  ASSERT_EQ(Parse({"-p", "12,34", "--per-thread", "--duration", "2"}, &o), "");
  EXPECT_EQ(o.pids, (std::vector<int>{12, 34}));
  EXPECT_TRUE(o.per_thread);
  ASSERT_EQ(Parse({"-t", "56", "-I", "100", "--interval-count", "3", "-D", "50"}, &o), "");
  EXPECT_EQ(o.tids, (std::vector<int>{56}));
  EXPECT_EQ(o.interval_count, 3);
  EXPECT_EQ(o.delay_ms, 50);
  ASSERT_EQ(Parse({"-p", "12", "--", "sleep", "1"}, &o), "");  // the command is the timer
  EXPECT_EQ(Parse({"-a", "-t", "0.5"}, &o),
            "-t 0.5: -t takes thread ids now, as in perf stat; for a duration in seconds, use "
            "--duration 0.5");
  EXPECT_EQ(Parse({"-a", "-t", "2"}, &o),
            "-t and -a cannot be combined: -t takes thread ids now, as in perf stat; for a "
            "duration in seconds, use --duration");
  ASSERT_EQ(Parse({"-a", "--time", "2"}, &o), "");  // the old long name still works
  EXPECT_DOUBLE_EQ(o.duration_s, 2);
}

TEST(PmcountOptions, HelpSkipsValidation) {
  Options o;
  ASSERT_EQ(Parse({"--help"}, &o), "");
  EXPECT_TRUE(o.help);
  EXPECT_NE(UsageText().find("Usage: pmcount"), std::string::npos);
}

TEST(PmcountOptions, EveryBadInputIsRefusedWithAReason) {
  const std::vector<std::vector<std::string>> bad = {
      {},                    // no command, no -a
      {"-e", "task-clock"},  // still no command
      {"-C", "0", "true"},   // -C without -a
      {"-A", "true"},        // per CPU without -a
      {"--per-core", "true"},
      {"--stats", "true"},
      {"-a", "-C", "", "true"},  // CPU lists
      {"-a", "-C", "a", "true"},
      {"-a", "-C", "3-1", "true"},
      {"-a", "-C", "0,,1", "true"},
      {"-a", "-C", "0-", "true"},
      {"-a", "-C", "-1", "true"},
      {"-a", "-C", "99999", "true"},
      {"-I", "abc", "true"},  // intervals
      {"-I", "5", "true"},
      {"-I", "0", "true"},
      {"-I", "-10", "true"},
      {"-I", "100ms", "true"},
      {"-I", "", "true"},
      {"-r", "0", "true"},  // repeats
      {"-r", "101", "true"},
      {"-r", "2", "-a"},
      {"-r", "2", "-I", "100", "true"},
      {"-a", "-t", "0", "true"},  // durations
      {"-a", "-t", "x"},
      {"-a", "-t", "1", "true"},
      {"--duration", "1"},
      {"-p", "1", "-a"},  // attach
      {"-p", "0"},
      {"-p", "1,,2"},
      {"-r", "2", "-p", "1", "true"},
      {"--per-thread", "true"},
      {"--interval-count", "3", "true"},
      {"-D", "-1", "true"},
      {"-x", ",", "--json", "true"},  // formats
      {"-x", "", "true"},
      {"-A", "--per-socket", "-a"},    // two splits
      {"-e", "a", "-g", "b", "true"},  // events and a group
      {"-g", "a", "-g", "b", "true"},
      {"--bogus", "true"},  // unknown or malformed options
      {"-Q", "true"},
      {"-e"},
      {"--event"},
      {"--user=1", "true"},
      {"-o", "", "true"},
  };
  for (const auto &args : bad) {
    Options o;
    std::string joined;
    for (const std::string &a : args) joined += "[" + a + "]";
    EXPECT_NE(Parse(args, &o), "") << joined;
  }
}

TEST(PmcountOptions, CpuListsRoundTrip) {
  std::vector<int> cpus;
  ASSERT_EQ(ParseCpuList("6,0-3,2", &cpus), "");
  EXPECT_EQ(cpus, (std::vector<int>{0, 1, 2, 3, 6}));
  EXPECT_EQ(FormatCpuList(cpus), "0-3,6");
  EXPECT_EQ(FormatCpuList({}), "");
  EXPECT_EQ(FormatCpuList({5}), "5");
  EXPECT_EQ(FormatCpuList({1, 3, 4}), "1,3-4");
}

}  // namespace
}  // namespace pmcount
