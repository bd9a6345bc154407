// SPDX-License-Identifier: MIT
// hpmcount's and hpmstat's command lines and the AIX report layout a script parses.
#include <gtest/gtest.h>
#include <math.h>

#include "hpm_options.h"
#include "hpm_report.h"

namespace aix {
namespace {

TEST(HpmOptions, HpmcountTakesAixFlagsThenTheCommand) {
  HpmOptions o;
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmcount, {"-g", "pm_sw_basic", "ls", "-l"}, &o), "");
  EXPECT_EQ(o.groups, "pm_sw_basic");
  EXPECT_EQ(o.command, (std::vector<std::string>{"ls", "-l"}));
  // getopt's forms: letters together, a value glued to its letter.
  ASSERT_EQ(
      ParseHpmOptions(Tool::kHpmcount, {"-dkx", "-gpm_basic,pm_branch", "-o", "out", "a.out"}, &o),
      "");
  EXPECT_TRUE(o.detailed && o.kernel && o.extended);
  EXPECT_EQ(o.groups, "pm_basic,pm_branch");
  EXPECT_EQ(o.output, "out");
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmcount, {"-s", "1", "--", "-weird"}, &o), "");
  EXPECT_EQ(o.sets, "1");
  EXPECT_EQ(o.command, (std::vector<std::string>{"-weird"}));
  // A job script's line: the HPM Toolkit's -n glued to -a and -o with its value after.
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmcount, {"-nao", "prof/hpm", "./a.out"}, &o), "");
  EXPECT_TRUE(o.quiet && o.aggregate);
  EXPECT_EQ(o.output, "prof/hpm");
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmcount, {"-h"}, &o), "");
  EXPECT_TRUE(o.help);
}

TEST(HpmOptions, HpmcountRefusesWhatAixWould) {
  HpmOptions o;
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {}, &o).find("no command"), std::string::npos);
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {"-q", "ls"}, &o).find("unknown option '-q'"),
            std::string::npos);
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {"-g"}, &o).find("-g needs a value"),
            std::string::npos);
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {"-b", "cycles", "ls"}, &o).find("-b takes"),
            std::string::npos);
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {"-g", "a", "-e", "b", "ls"}, &o).find("one way"),
            std::string::npos);
  // -u, -T and -U are hpmstat's.
  EXPECT_NE(ParseHpmOptions(Tool::kHpmcount, {"-U", "ls"}, &o), "");
}

TEST(HpmOptions, HpmstatIntervalAndCount) {
  HpmOptions o;
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmstat, {"-g", "pm_sw_basic", "1", "2"}, &o), "");
  EXPECT_EQ(o.interval, 1);
  EXPECT_EQ(o.count, 2);
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmstat, {}, &o), "");
  EXPECT_EQ(o.interval, 1) << "AIX's default: one iteration of one second";
  EXPECT_EQ(o.count, 1);
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmstat, {"-U", "500"}, &o), "");
  EXPECT_EQ(o.interval, 500);
  EXPECT_EQ(o.count, 0) << "-U counts until interrupted";
  // Options after the operands, as scripts write them.
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmstat, {"-U", "200000", "-g", "pm_sw_basic"}, &o), "");
  EXPECT_EQ(o.interval, 200000);
  EXPECT_EQ(o.groups, "pm_sw_basic");
  ASSERT_EQ(ParseHpmOptions(Tool::kHpmstat, {"-uTr", "-@", "ALL", "5"}, &o), "");
  EXPECT_TRUE(o.user && o.timestamps && o.runlatch);
  EXPECT_EQ(o.wpar, "ALL");
  for (const std::vector<std::string> &bad : std::vector<std::vector<std::string>>{
           {"0"}, {"x"}, {"1", "0"}, {"1", "2", "3"}, {"1", "-1"}, {"99999999999999999999"}}) {
    EXPECT_NE(ParseHpmOptions(Tool::kHpmstat, bad, &o), "") << bad[0];
  }
}

SetResult SwBasic() {
  SetResult set;
  set.group = "pm_sw_basic";
  set.seconds = 2;
  set.events.push_back({"task-clock", "Task clock", true, 1000000000ULL, ""});
  set.events.push_back({"PM_CYC", "Processor cycles", false, 0, "no hardware PMU"});
  set.metrics.push_back({"CPUs_utilized", 0.5, "task-clock / (time * 1e9)"});
  set.metrics.push_back({"IPC", NAN, "PM_INST_CMPL / PM_CYC"});
  return set;
}

std::vector<std::string> Lines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool Has(const std::vector<std::string> &lines, const std::string &line) {
  for (const std::string &l : lines) {
    if (l == line) return true;
  }
  return false;
}

// The value after a line's last ':' the way awk -F: '{print $NF}' reads it, spaces trimmed.
std::string ValueOf(const std::vector<std::string> &lines, const std::string &label) {
  for (const std::string &l : lines) {
    if (l.find(label) == std::string::npos) continue;
    std::string value = l.substr(l.rfind(':') + 1);
    value.erase(0, value.find_first_not_of(' '));
    return value;
  }
  return "(missing)";
}

TEST(HpmReport, AixLayoutForAScript) {
  HpmReport report;
  report.workload = "ls";
  report.pid = 42;
  report.has_usage = true;
  report.usage.ru_utime = {1, 500};
  report.usage.ru_minflt = 63;
  report.usage.ru_nvcsw = 2;
  report.wall_seconds = 1.25;
  report.mode = "user";
  report.sets.push_back(SwBasic());
  const std::vector<std::string> lines = Lines(FormatReport(report));
  EXPECT_EQ(lines[0], " Workload context: ls (pid:42)");
  EXPECT_EQ(lines[1], " Execution time (wall clock time): 1.250000 seconds");
  EXPECT_EQ(lines[2], " ########  Resource Usage Statistics  ########");
  EXPECT_TRUE(Has(lines, " Total amount of time in user mode            : 1.000500 seconds"));
  EXPECT_TRUE(Has(lines, " Number of page faults without I/O activity   : 63"));
  EXPECT_TRUE(Has(lines, " Number of voluntary context switches         : 2"));
  // Fields Linux keeps at zero are said to be so, not printed as a zero.
  EXPECT_TRUE(Has(lines, " Number of times process was swapped out      : not kept by Linux"));
  EXPECT_TRUE(Has(lines, " #######  End of Resource Statistics  ########"));
  EXPECT_TRUE(Has(lines, " Counting mode: user"));
  EXPECT_EQ(ValueOf(lines, "task-clock (Task clock)"), "1000000000");
  EXPECT_NE(ValueOf(lines, "PM_CYC (Processor cycles)").find("no hardware PMU"), std::string::npos);
  EXPECT_TRUE(Has(lines, "  Derived metric group: pm_sw_basic"));
  EXPECT_EQ(ValueOf(lines, "CPUs_utilized"), "0.500");
  EXPECT_EQ(ValueOf(lines, "  IPC "), "n/a") << "no value is never a fake 0";
  EXPECT_FALSE(Has(lines, "    formula: task-clock / (time * 1e9)")) << "only with -x";
}

TEST(HpmReport, MultiplexedSetsAndFormulas) {
  HpmReport report;
  report.wall_seconds = 1;
  report.mode = "user+kernel";
  report.multiplexed = true;
  report.formulas = true;
  report.timestamp = "1700000000.000001";
  report.sets = {SwBasic(), SwBasic()};
  const std::vector<std::string> lines = Lines(FormatReport(report));
  EXPECT_EQ(lines[0], " Time stamp: 1700000000.000001");
  EXPECT_TRUE(Has(lines, " Set: 2"));
  EXPECT_TRUE(Has(lines, " Counting duration: 2.000 seconds"));
  EXPECT_TRUE(Has(lines, "    formula: task-clock / (time * 1e9)"));
  EXPECT_FALSE(Has(lines, " ########  Resource Usage Statistics  ########")) << "hpmstat: none";
  report.metrics = false;  // hpmstat -U
  EXPECT_EQ(FormatReport(report).find("Derived metric group"), std::string::npos);
}

TEST(HpmReport, OutputFileNamedAsAixDoes) {
  EXPECT_EQ(HpmcountOutputName("out", nullptr, 4242), "out_0000.4242");
  EXPECT_EQ(HpmcountOutputName("out", "", 7), "out_0000.7");
  EXPECT_EQ(HpmcountOutputName("dir/run", "3", 7), "dir/run_0003.7");
  EXPECT_EQ(HpmcountOutputName("run", "12345", 7), "run_12345.7");
}

}  // namespace
}  // namespace aix
