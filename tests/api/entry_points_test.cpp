// SPDX-License-Identifier: MIT
// Every supported counting entry point, called by name from one table, with exact counts: for
// each family (system-wide, _mythread, _thread, _pthread, _mygroup, _group, _pgroup) the same
// sequence runs through that family's set / get_program / start / tstart / stop / tstop /
// reset_data / get_data / get_tdata / get_Tdata / delete, and system-wide also through the six
// _cpu and _lcpu reads. A second test fails when pmapi.h declares an entry point that is neither
// in the table, nor unsupported (src/api/not_supported.cpp), nor called by another test file.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/child_process.h"
#include "support/counting.h"
#include "support/family_entry_points.h"
#include "support/read_text.h"
#include "support/timebase.h"

using namespace pmapi_test;

namespace {

class EntryPoints : public ::testing::TestWithParam<FamilyKind> {
 protected:
  void SetUp() override {
    if (GetParam() == FamilyKind::kSystem && geteuid() != 0) {
      GTEST_SKIP() << "system-wide counting needs root or CAP_PERFMON";
    }
    if (!InitializeAll()) return;
  }
};

// The sequence, with each step's expected result. `calls(n)` makes the target (this thread,
// the child, or for system-wide the rare system call) call exactly n times.
TEST_P(EntryPoints, EachCallDoesWhatItSaysWithExactCounts) {
  const FamilyKind kind = GetParam();
  std::unique_ptr<CallingChild> child(IsRemote(kind) ? new CallingChild : nullptr);
  if (child) {
    ASSERT_TRUE(child->ok());
  }
  const FamilyOps ops = OpsFor(kind, child ? child->pid() : 0);
  auto calls = [&](long n) {
    if (child) {
      ASSERT_TRUE(child->Calls(n));
    } else if (kind == FamilyKind::kSystem) {
      CallRareSyscall(n);
    } else {
      CallGetppid(n);
    }
  };
  const int event = EventId(kind == FamilyKind::kSystem ? kRareSyscall : kGetppid);
  pm_prog_t prog = MakeProgram({event}, PM_USER | PM_KERNEL);  // set stopped: no PM_COUNT
  pm_data_t data{};
  timebasestruct_t start_time{}, stop_time{}, read_time{};
  pm_accu_time_t times{};
  Args a;
  a.prog = &prog;
  a.data = &data;
  a.times = &times;
  auto read_count = [&](const Op &read, timebasestruct_t *time) -> long long {
    data = {};
    a.time = time;
    const int rc = read(a);
    EXPECT_EQ(rc, 0) << read.name << ": " << pm_strerror(read.name.c_str(), rc);
    return data.accu[0];
  };

  ASSERT_EQ(ops.set(a), 0) << ops.set.name << ": " << pm_strerror(ops.set.name.c_str(), 0);
  calls(3);
  EXPECT_EQ(read_count(ops.get_data, nullptr), 0) << "set without PM_COUNT counts nothing";
  ASSERT_EQ(ops.start(a), 0) << ops.start.name;
  calls(5);
  ASSERT_EQ(ops.stop(a), 0) << ops.stop.name;
  calls(2);
  EXPECT_EQ(read_count(ops.get_data, nullptr), 5) << ops.get_data.name;

  a.time = &start_time;
  ASSERT_EQ(ops.tstart(a), 0) << ops.tstart.name;
  calls(7);
  a.time = &stop_time;
  ASSERT_EQ(ops.tstop(a), 0) << ops.tstop.name;
  EXPECT_GT(TimebaseNanos(start_time), 0u) << ops.tstart.name << " gives the time";
  EXPECT_LE(TimebaseNanos(start_time), TimebaseNanos(stop_time)) << ops.tstop.name;

  EXPECT_EQ(read_count(ops.get_tdata, &read_time), 12) << ops.get_tdata.name;
  EXPECT_GE(TimebaseNanos(read_time), TimebaseNanos(stop_time)) << ops.get_tdata.name;
  times = {};
  EXPECT_EQ(read_count(ops.get_Tdata, nullptr), 12) << ops.get_Tdata.name;
  EXPECT_GT(TimebaseNanos(times.accu_timebase), 0u) << ops.get_Tdata.name << ": time enabled";

  // System-wide: each per-CPU read, summed over the CPUs, gives the total exactly.
  const int cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  for (const Op &read : ops.cpu_reads) {
    long long sum = 0;
    for (a.cpu = 0; a.cpu < cpus; ++a.cpu) sum += read_count(read, &read_time);
    EXPECT_EQ(sum, 12) << read.name << " over " << cpus << " CPUs";
  }

  ASSERT_EQ(ops.reset(a), 0) << ops.reset.name;
  EXPECT_EQ(read_count(ops.get_data, nullptr), 0) << ops.reset.name << " zeroes the counts";

  pm_prog_t got{};
  a.prog = &got;
  ASSERT_EQ(ops.get_program(a), 0) << ops.get_program.name;
  EXPECT_EQ(got.events[0], event) << ops.get_program.name;
  EXPECT_EQ(got.events[1], COUNT_NOTHING) << ops.get_program.name;
  EXPECT_TRUE(got.mode.b.user && got.mode.b.kernel) << ops.get_program.name;
  EXPECT_FALSE(got.mode.b.count) << ops.get_program.name << ": stopped";

  ASSERT_EQ(ops.del(a), 0) << ops.del.name;
  EXPECT_EQ(ops.get_data(a), Pmapi_NoSetProg) << ops.del.name << " left a program";
}

INSTANTIATE_TEST_SUITE_P(Families, EntryPoints,
                         ::testing::Values(FamilyKind::kSystem, FamilyKind::kMyThread,
                                           FamilyKind::kThread, FamilyKind::kPthread,
                                           FamilyKind::kMyGroup, FamilyKind::kGroup,
                                           FamilyKind::kPgroup),
                         [](const ::testing::TestParamInfo<FamilyKind> &param) {
                           return std::string(FamilyName(param.param));
                         });

// --- Coverage: no entry point without a test ------------------------------------------------

std::string SourceDir() {
  if (const char *dir = getenv("PMAPI_SOURCE_DIR")) return dir;
  std::string file = __FILE__;  // .../tests/api/entry_points_test.cpp
  return file.substr(0, file.rfind("/tests/"));
}

using pmapi_test::ReadText;

// Line by line: std::regex recurses per character, and a whole file overflows its stack.
std::set<std::string> Matches(const std::string &text, const std::regex &pattern) {
  std::set<std::string> names;
  std::istringstream lines(text);
  std::string line;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, match, pattern)) names.insert(match[1]);
  }
  return names;
}

// The header's function-like macros, name -> body (continuation lines joined).
std::map<std::string, std::string> FunctionLikeMacros(const std::string &header) {
  std::map<std::string, std::string> macros;
  std::istringstream lines(header);
  std::string line, logical;
  const std::regex define(R"(^#\s*define\s+(\w+)\((.*)$)");
  while (std::getline(lines, line)) {
    logical += line;
    if (!logical.empty() && logical.back() == '\\') {
      logical.pop_back();
      continue;
    }
    std::smatch match;
    if (std::regex_search(logical, match, define)) macros[match[1]] = match[2];
    logical.clear();
  }
  return macros;
}

TEST(EntryPointCoverage, EveryDeclaredEntryPointIsTested) {
  const std::string source = SourceDir();
  const std::string header_text = ReadText(source + "/include/pmapi.h");
  const std::set<std::string> declared =
      Matches(header_text, std::regex(R"(^(?:int|double|void|char)\s+\*?(\w+)\()"));
  ASSERT_GT(declared.size(), 170u) << "could not read " << source << "/include/pmapi.h";
  const std::string not_supported_text = ReadText(source + "/src/api/not_supported.cpp");
  std::set<std::string> unsupported =
      Matches(not_supported_text, std::regex(R"(PMAPI_UNSUPPORTED\((\w+))"));
  for (const std::string &raw : Matches(
           not_supported_text, std::regex(R"(^\w+ (\w+)\(.*\{ return RawRegisterUnsupported)"))) {
    unsupported.insert(raw);
  }
  ASSERT_GT(unsupported.size(), 20u) << "could not read src/api/not_supported.cpp";

  std::set<std::string> in_table;
  for (FamilyKind kind :
       {FamilyKind::kSystem, FamilyKind::kMyThread, FamilyKind::kThread, FamilyKind::kPthread,
        FamilyKind::kMyGroup, FamilyKind::kGroup, FamilyKind::kPgroup}) {
    const FamilyOps ops = OpsFor(kind, 1);  // named: All() points into it
    for (const Op *op : ops.All()) in_table.insert(op->name);
  }

  // The counting calls must all be in the table above (exact counts); the other supported
  // calls (initialization, messages, time, and the _mx/_mm families, whose tests are
  // tests/core/counting_mx_*_test.cpp) must be called by some test file of their own.
  const std::regex counting(
      R"(pm_(set_program|get_program|delete_program|start|tstart|stop|tstop|reset_data|get_data|get_tdata|get_Tdata)(_\w+)?)");
  // Every other test binary's source (tests/<folder>/*_test.cpp), so that a
  // new entry point's own test file counts wherever it is; the header compile check and
  // exports_check do not (they name every function without testing it).
  std::string other_tests;
  auto read_tests_in = [&](const std::string &folder) {
    DIR *dir = opendir(folder.c_str());
    if (!dir) return;
    while (dirent *entry = readdir(dir)) {
      const std::string name = entry->d_name;
      const std::string suffix = "_test.cpp";
      if (name.size() <= suffix.size() || name == "entry_points_test.cpp" ||
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
        continue;
      }
      other_tests += ReadText(folder + "/" + name);
    }
    closedir(dir);
  };
  if (DIR *dir = opendir((source + "/tests").c_str())) {
    while (dirent *entry = readdir(dir)) {
      if (entry->d_name[0] != '.') read_tests_in(source + "/tests/" + entry->d_name);
    }
    closedir(dir);
  }
  ASSERT_NE(other_tests.find("pm_initialize("), std::string::npos)
      << "could not read " << source << "/tests/*/*_test.cpp";
  const std::map<std::string, std::string> macros = FunctionLikeMacros(header_text);
  for (const std::string &name : declared) {
    if (unsupported.count(name)) {
      EXPECT_FALSE(in_table.count(name)) << name << " is unsupported, yet in the table";
      continue;
    }
    const bool multiplexed = std::regex_match(name, std::regex(R"(.*_m[xm])"));
    if (std::regex_match(name, counting) && !multiplexed) {
      EXPECT_TRUE(in_table.count(name)) << name << " counts but is not in the entry-point table";
    } else {
      // Called, handed over as a pointer to a parameterized test (timebase_test.cpp), or
      // reached through a function-like macro of the header that a test calls (pm_init's
      // arity macro selects pm_init_args2/3/4).
      bool called = other_tests.find(name + "(") != std::string::npos ||
                    other_tests.find("&" + name) != std::string::npos;
      for (const auto &[macro, body] : macros) {
        if (called) break;
        called = body.find(name) != std::string::npos &&
                 other_tests.find(macro + "(") != std::string::npos;
      }
      EXPECT_TRUE(called) << name << " is exported and supported but no test calls it";
    }
  }
  for (const std::string &name : in_table) {
    EXPECT_TRUE(declared.count(name)) << name << " is in the table but not in pmapi.h";
  }
}

}  // namespace
