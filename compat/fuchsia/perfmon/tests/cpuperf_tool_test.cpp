// SPDX-License-Identifier: MIT
// The cpuperf tool as people run it: tallies, dumps and traces of a command with known calls,
// and a message naming the field for every kind of bad spec.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "json.h"
#include "perfmon_test_helpers.h"
#include "support/read_text.h"
#include "support/scratch_dir.h"

namespace perfmon_test {
namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

// Runs cpuperf with `args` (a shell word list), output prefix in a fresh directory.
class Tool : public ::testing::Test {
 protected:
  Result Run(const std::string &args) {
    std::string command = std::string(CPUPERF_PATH) + " --output-prefix=" + dir_ + "/trace " +
                          args + " >" + dir_ + "/out 2>" + dir_ + "/err";
    Result result;
    OnOneCpu here;  // cpuperf and its command: one CPU's sampling period sees every call
    EXPECT_TRUE(here.pinned());
    int status = system(command.c_str());
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = pmapi_test::ReadText(dir_ + "/out");
    result.err = pmapi_test::ReadText(dir_ + "/err");
    return result;
  }
  std::string WriteSpec(const std::string &text) {
    std::string path = dir_ + "/spec.cpspec";
    std::ofstream(path) << text;
    return path;
  }
  std::string Workload(long calls) {
    return std::string(" -- ") + GETPPID_CALLS_PATH + " " + std::to_string(calls);
  }
  pmapi_test::ScratchDir scratch_{"cpuperf_test."};
  std::string dir_ = scratch_.path();
};

TEST_F(Tool, TalliesACommandsCallsExactly) {
  Result r = Run(std::string("-e ") + kGetppid + "@100/pc -e linux:task-clock" + Workload(1000));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // The header names the events; the total counts every call.
  EXPECT_NE(r.out.find(std::string("|") + kGetppid + "|linux:task-clock"), std::string::npos)
      << r.out;
  std::string total = r.out.substr(r.out.find("Total:"));
  EXPECT_EQ(total.substr(0, 10 + 1 + 37), "Total:    |" + std::string(32, ' ') + "1,000") << r.out;
  // Per CPU buffers, each as long as its capture_end says, and the session result.
  for (uint32_t cpu = 0; cpu < NumCpus(); ++cpu) {
    std::string bytes = pmapi_test::ReadText(dir_ + "/trace.0." + std::to_string(cpu) + ".cpuperf");
    ASSERT_GE(bytes.size(), 24u);
    perfmon_reader_t reader;
    EXPECT_EQ(perfmon_reader_init(&reader, bytes.data(), bytes.size()), ZX_OK);
    EXPECT_EQ(reader.end, bytes.size());
  }
  tools::Json result;
  ASSERT_EQ(tools::ParseJson(pmapi_test::ReadText(dir_ + "/trace.cpsession"), &result), "");
  ASSERT_NE(result.Find("num_traces"), nullptr);
  EXPECT_EQ(result.Find("num_traces")->number, NumCpus());
  EXPECT_EQ(result.Find("output_path_prefix")->text, dir_ + "/trace");
}

TEST_F(Tool, TalliesAFollowerByItsTotalNotItsReadingsPlusItsTotal) {
  // The follower is read at every timebase sample (VALUE records) and counted at the end
  // (COUNT): its tally is the count, exactly the calls made.
  Result r = Run(std::string("-e ") + kGetppid +
                 "@10/timebase -e tracepoint:syscalls:sys_exit_getppid" + Workload(1000));
  ASSERT_EQ(r.status, 0) << r.err;
  std::string total = r.out.substr(r.out.find("Total:"));
  EXPECT_EQ(total,
            "Total:    |" + std::string(32, ' ') + "1,000|" + std::string(31, ' ') + "1,000\n")
      << r.out;
}

TEST_F(Tool, CountsWhatPerfStatCountsForTheSameRun) {
  if (system("perf --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "perf is not installed";
  // cpuperf around perf stat around the workload: one run, counted by both (perf itself makes
  // no getppid call; a sanitized cpuperf's runtime would, so cpuperf stays outside).
  std::string stat = dir_ + "/stat";
  Result r = Run(std::string("-e ") + kGetppid + " -- perf stat -x, -o " + stat +
                 " -e syscalls:sys_enter_getppid -- " + GETPPID_CALLS_PATH + " 4321");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string perf = pmapi_test::ReadText(stat);
  EXPECT_NE(perf.find("\n4321,,syscalls:sys_enter_getppid"), std::string::npos) << perf;
  EXPECT_NE(r.out.find("Total:    |                                4,321\n"), std::string::npos)
      << r.out;
}

TEST_F(Tool, ASpecFileWithCommentsAndIterations) {
  std::string spec = WriteSpec(R"({
    // Fuchsia's .cpspec fields
    "config_name": "getppid",
    "events": [ { "group_name": "tracepoint", "event_name": "syscalls:sys_enter_getppid",
                  "rate": 0, "flags": ["os", "user"] } ],  /* counted only */
    "num_iterations": 3
  })");
  Result r = Run("--spec-file=" + spec + Workload(77));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("Iteration 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("|                                  231"), std::string::npos) << r.out;
  EXPECT_EQ(pmapi_test::ReadText(dir_ + "/trace.cpsession").find("\"num_iterations\": 3") !=
                std::string::npos,
            true);
}

TEST_F(Tool, DumpsEveryRecord) {
  Result r = Run(std::string("--dump -e ") + kGetppid + "@100/pc" + Workload(1000));
  ASSERT_EQ(r.status, 0) << r.err;
  size_t pcs = 0, at = 0;
  char id[16];
  snprintf(id, sizeof id, "0x%x", Id(kGetppid));
  std::string pc_line = std::string(": PC: Event ") + id + ", aspace 0x";
  while ((at = r.out.find(pc_line, at)) != std::string::npos) ++pcs, ++at;
  EXPECT_EQ(pcs, 10u) << r.out;
  EXPECT_NE(r.out.find("\nIteration 0\n==============\n"), std::string::npos);
  EXPECT_NE(r.out.find("0018: Time: "), std::string::npos);
}

TEST_F(Tool, WritesAChromeTraceWithACounterTrackPerEventAndCpu) {
  std::string trace = dir_ + "/trace.json";
  Result r =
      Run(std::string("--quiet --perfetto=") + trace + " -e " + kGetppid + "@10" + Workload(500));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  tools::Json json;
  ASSERT_EQ(tools::ParseJson(pmapi_test::ReadText(trace), &json), "");
  const tools::Json *events = json.Find("traceEvents");
  ASSERT_NE(events, nullptr);
  double last = 0;
  size_t counters = 0;
  for (const tools::Json &event : events->items) {
    if (event.Find("ph")->text != "C") continue;
    ++counters;
    std::string name = event.Find("name")->text;
    EXPECT_EQ(name.rfind(std::string(kGetppid) + " cpu", 0), 0u) << name;
    double count = event.Find("args")->Find("count")->number;
    if (count > last) last = count;
  }
  EXPECT_GE(counters, 50u);  // a point per record, and one per track at the start
  EXPECT_EQ(last, 500);
}

TEST_F(Tool, AnUnprivilegedUserTracesTheirCommandButNotTheMachine) {
  if (geteuid() != 0 || system("setpriv --version >/dev/null 2>&1") != 0 ||
      system("prlimit --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "needs root to drop to nobody, setpriv and prlimit";
  }
  ASSERT_EQ(chmod(dir_.c_str(), 0777), 0);
  // nobody, with 64 KiB of locked memory: 2 MiB sample rings do not fit, smaller ones do.
  const std::string nobody =
      "prlimit --memlock=65536 setpriv --reuid=65534 --regid=65534 --clear-groups ";
  std::string as_nobody = nobody + CPUPERF_PATH + " --output-prefix=" + dir_ + "/nobody ";
  // Sampling rings within the unprivileged locked-memory limit, user mode only.
  int status = system(
      (as_nobody + "-e linux:page-faults@1/user+pc -- true >" + dir_ + "/own.out 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 0) << pmapi_test::ReadText(dir_ + "/own.out");
  EXPECT_EQ(pmapi_test::ReadText(dir_ + "/own.out").find("buffer full"), std::string::npos);
  status = system(
      (as_nobody + "-e linux:task-clock --duration=0.01 >" + dir_ + "/machine.out 2>&1").c_str());
  EXPECT_EQ(WEXITSTATUS(status), 125);
  std::string machine = pmapi_test::ReadText(dir_ + "/machine.out");
  EXPECT_NE(machine.find("Start: ZX_ERR_ACCESS_DENIED: linux:task-clock on CPU 0"),
            std::string::npos)
      << machine;
  EXPECT_NE(machine.find("root or CAP_PERFMON"), std::string::npos) << machine;
}

TEST_F(Tool, AnUnprivilegedUserIsToldTheRealReasonForARefusal) {
  if (geteuid() != 0 || system("setpriv --version >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "needs root to drop to nobody, and setpriv";
  }
  ASSERT_EQ(chmod(dir_.c_str(), 0777), 0);
  const std::string as_nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups " +
                                std::string(CPUPERF_PATH) + " --output-prefix=" + dir_ + "/nobody ";
  // Their own command, both modes (no flag): it is kernel mode that needs privilege here.
  FILE *file = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
  int paranoid = -1;
  if (file) {
    if (fscanf(file, "%d", &paranoid) != 1) paranoid = -1;
    fclose(file);
  }
  if (paranoid >= 2) {
    int status =
        system((as_nobody + "-e linux:task-clock -- true >" + dir_ + "/own.out 2>&1").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 125);
    std::string own = pmapi_test::ReadText(dir_ + "/own.out");
    EXPECT_NE(own.find("counting kernel mode needs root or CAP_PERFMON when "
                       "kernel.perf_event_paranoid is 2 or more, as it is here ("),
              std::string::npos)
        << own;
    EXPECT_NE(own.find("add the user flag to count user mode only, e.g. cpuperf -e "
                       "GROUP:NAME/user"),
              std::string::npos)
        << own;
    EXPECT_EQ(own.find("whole machine"), std::string::npos) << own;
  }
  // A tracepoint while tracefs is root's: said so, not "no such event".
  if (system("setpriv --reuid=65534 --regid=65534 --clear-groups test -r "
             "/sys/kernel/tracing/events -a -x /sys/kernel/tracing/events") != 0) {
    int status =
        system((as_nobody + "-e " + kGetppid + " -- true >" + dir_ + "/tp.out 2>&1").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2);
    std::string tp = pmapi_test::ReadText(dir_ + "/tp.out");
    EXPECT_NE(tp.find("events[0].event_name: tracepoint:syscalls:sys_enter_getppid: tracepoints "
                      "cannot be seen by this user: tracefs (/sys/kernel/tracing) is readable by "
                      "root only here"),
              std::string::npos)
        << tp;
    EXPECT_EQ(tp.find("has no event"), std::string::npos) << tp;
  }
}

TEST_F(Tool, WritesAPprofProfileThatGoToolPprofReads) {
  if (system("go version >/dev/null 2>&1") != 0) GTEST_SKIP() << "go is not installed";
  // The workload has exited when the profile is written: its PCs are named from the mappings
  // the trace recorded.
  std::string profile = dir_ + "/profile.pb.gz";
  Result r = Run(std::string("--quiet --pprof=") + profile + " -e " + kGetppid + "@10/pc" +
                 Workload(1000));
  ASSERT_EQ(r.status, 0) << r.err;
  std::string top = dir_ + "/top";
  std::string command = "HOME=" + dir_ + " GOCACHE=" + dir_ + "/gocache go tool pprof -top " +
                        profile + " >" + top + " 2>&1";
  ASSERT_EQ(system(command.c_str()), 0) << pmapi_test::ReadText(top);
  std::string text = pmapi_test::ReadText(top);
  EXPECT_NE(text.find("Total samples = 1000"), std::string::npos) << text;  // 100 x rate 10
  // Every sample at the one instruction after the workload's syscall, in call_getppid (named by
  // the label that marks it, or by its function).
  EXPECT_TRUE(text.find("1000   100%   100%       1000   100%  getppid_after") !=
                  std::string::npos ||
              text.find("1000   100%   100%       1000   100%  call_getppid") != std::string::npos)
      << text;
  Result no_pcs = Run("--pprof=" + profile + " -e " + std::string(kGetppid) + Workload(1));
  EXPECT_EQ(no_pcs.status, 2);
  EXPECT_NE(no_pcs.err.find("--pprof: profiles PC records"), std::string::npos) << no_pcs.err;
}

TEST_F(Tool, PassesTheCommandsExitStatus) {
  Result r = Run("--quiet -e linux:task-clock -- sh -c 'exit 3'");
  EXPECT_EQ(r.status, 3) << r.err;
}

TEST_F(Tool, BadSpecsNameTheirField) {
  struct Case {
    const char *spec;
    const char *message;
  };
  const Case cases[] = {
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "rate": -1}]})",
       "events[0].rate: must be an integer"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "rate": 1.5}]})",
       "events[0].rate: must be an integer"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "flags": ["pcs"]}]})",
       "events[0].flags[0]: not a flag"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "flags": "pc"}]})",
       "events[0].flags: must be an array"},
      {R"({"events": [{"group_name": "linux"}]})", "events[0].event_name: missing"},
      {R"({"events": [{"group_name": "nosuch", "event_name": "x"}]})",
       "events[0].group_name: 'nosuch' is not a group"},
      {R"({"events": [{"group_name": "linux", "event_name": "nosuch"}]})",
       "events[0].event_name: this machine has no event linux:nosuch"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "colour": 1}]})",
       "events[0].colour: not a field of an event"},
      {R"({"events": {}})", "events: must be an array"},
      {R"({"events": []})", "events: none given"},
      {R"({"buffer_size_in_mb": 0})", "buffer_size_in_mb: must be an integer from 1 to 256"},
      {R"({"duration": -2})", "duration: must be a number of seconds above 0"},
      {R"({"num_iterations": "two"})", "num_iterations: must be an integer"},
      {R"({"output_path_prefix": 7})", "output_path_prefix: must be a string"},
      {R"({"durashun": 1})", "durashun: not a field of a session spec"},
      {"{\n\"events\": [\n}", "line 3: not a JSON value"},
      // JSON has no NaN, no Infinity and no hex: each is refused with the field's range.
      {R"({"num_iterations": nan})",
       "num_iterations: must be an integer from 1 to 1000000 (nan is not a number in JSON"},
      {R"({"num_iterations": NaN})", "num_iterations: must be an integer from 1 to 1000000"},
      {R"({"buffer_size_in_mb": nan})", "buffer_size_in_mb: must be an integer from 1 to 256"},
      {R"({"buffer_size_in_mb": 0x10})",
       "buffer_size_in_mb: must be an integer from 1 to 256 (0x10 is not a number in JSON"},
      {R"({"duration": infinity})",
       "duration: must be a number of seconds above 0 (at most a day) (infinity is not"},
      {R"({"duration": -Infinity})", "duration: must be a number of seconds above 0"},
      {R"({"num_iterations": +2})", "num_iterations: must be an integer from 1 to 1000000"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "rate": nan}]})",
       "events[0].rate: must be an integer from 0 to 4294967295 (nan is not"},
      {"[]", "the spec: must be a JSON object"},
      {R"({"events": [{"group_name": "linux", "event_name": "task-clock", "rate": 10,
                       "flags": ["timebase"]},
                      {"group_name": "linux", "event_name": "cpu-clock", "rate": 10,
                       "flags": ["timebase"]}]})",
       "the config: ZX_ERR_INVALID_ARGS: event 1: a second timebase"},
  };
  for (const Case &c : cases) {
    Result r = Run("--spec-file=" + WriteSpec(c.spec) + " -- true");
    EXPECT_EQ(r.status, 2) << c.spec;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.spec << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("cpuperf: ", 0), 0u) << r.err;
  }
  Result missing = Run("--spec-file=" + dir_ + "/nothing.cpspec");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("nothing.cpspec: cannot read"), std::string::npos);
}

TEST_F(Tool, BadOptionsSayWhich) {
  struct Case {
    const char *args;
    const char *message;
  };
  const Case cases[] = {
      {"-e linux", "must be GROUP:NAME"},
      {"-e linux:task-clock@x", "the rate after '@' must be an integer"},
      {"-e linux:task-clock/fast", "'fast' is not a flag"},
      {"-e linux:task-clock --buffer-size-mb=0", "--buffer-size-mb: must be"},
      {"-e linux:task-clock --duration=0", "--duration: must be"},
      {"-e linux:task-clock --iterations=x", "--iterations: must be"},
  };
  for (const Case &c : cases) {
    Result r = Run(std::string(c.args) + " -- true");
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST_F(Tool, ListsAndDescribesEvents) {
  Result list = Run("--list-events");
  ASSERT_EQ(list.status, 0);
  EXPECT_NE(list.out.find("\nGroup linux\n"), std::string::npos);
  EXPECT_NE(list.out.find("\ntask-clock\n"), std::string::npos);
  EXPECT_NE(list.out.find("\nsyscalls:sys_enter_getppid\n"), std::string::npos);
  Result describe = Run("--describe-event=fixed:instructions_retired");
  EXPECT_EQ(describe.status, 0);
  EXPECT_EQ(describe.out, "fixed:instructions_retired: id 0x1001 (group 2, event 1)\n");
}

}  // namespace
}  // namespace perfmon_test
