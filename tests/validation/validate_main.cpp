// SPDX-License-Identifier: MIT
// Validation (docs/validation.md): each workload of known size is counted by
// libpmapi and PAPI around the region inside pmapi_workload, and by perf
// stat from outside (the run with N minus a run with 0, which removes
// process start-up). Prints the table; fails if libpmapi's count breaks its
// rule (the peers are cross-checks: their n/a cells carry their reason).
//   pmapi_validate PATH/TO/pmapi_workload
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmath>
#include <sstream>
#include <string>

#include "spawn.h"
#include "workloads.h"

namespace {

constexpr int kSkip = 77;  // ctest SKIP_RETURN_CODE

struct Value {
  bool ok = false;
  double count = 0;
  // The region's CPU time and the wall time around its start and stop, in ns
  // (0 when not measured: perf stat's counts).
  double cpu_ns = 0, wall_ns = 0;
  std::string why;  // when !ok
};

struct Case {
  const char *kind;
  long n;
  double expected;
  // Allowed counts [low, high] for in-region counts and for perf's difference.
  double low, high, perf_low, perf_high;
  const char *rule;
};

Value ParseCount(const Output &output) {
  Value v;
  if (output.status != 0) {
    v.why = "exit status " + std::to_string(output.status) + ": " + output.err;
  } else if (output.out.rfind("count=", 0) == 0) {
    v.ok = true;
    v.count = atof(output.out.c_str() + 6);
    const size_t cpu = output.out.find(" cpu_ns="), wall = output.out.find(" wall_ns=");
    if (cpu != std::string::npos) v.cpu_ns = atof(output.out.c_str() + cpu + 8);
    if (wall != std::string::npos) v.wall_ns = atof(output.out.c_str() + wall + 9);
  } else if (output.out.rfind("na=", 0) == 0) {
    v.why = output.out.substr(3, output.out.find('\n') - 3);
  } else {
    v.why = "unexpected output: " + output.out;
  }
  return v;
}

// perf stat -x, writes "value,unit,event,..." on stderr; task-clock in msec.
Value PerfCount(const std::string &workload, const Workload &w, long n) {
  Output output =
      Spawn({"perf", "stat", "-x,", "-e", w.perf_name, "--", workload, w.kind, std::to_string(n)},
            std::string(w.kind) == "switches");
  Value v;
  std::istringstream lines(output.err);
  std::string line;
  while (std::getline(lines, line)) {
    std::string fields[3];
    std::istringstream cells(line);
    for (std::string &field : fields) std::getline(cells, field, ',');
    if (fields[2] != w.perf_name) continue;
    if (fields[0].empty() || fields[0][0] == '<') {
      v.why = "perf: " + fields[0];
      return v;
    }
    v.ok = true;
    v.count = atof(fields[0].c_str()) * (fields[1] == "msec" ? 1e6 : 1);
    return v;
  }
  v.why = "perf stat failed: " + output.err.substr(0, 200);
  return v;
}

Value PerfDifference(const std::string &workload, const Workload &w, long n) {
  Value with_n = PerfCount(workload, w, n);
  Value baseline = PerfCount(workload, w, 0);
  if (!with_n.ok) return with_n;
  if (!baseline.ok) return baseline;
  with_n.count -= baseline.count;
  return with_n;
}

std::string Cell(const Value &v) {
  if (!v.ok) return "n/a";
  char text[32];
  snprintf(text, sizeof text, "%.0f", v.count);
  return text;
}

bool Within(const Value &v, double low, double high) {
  return v.ok && v.count >= low && v.count <= high;
}

// task-clock is the time the thread was on a CPU, by the clock. That is at
// least the CPU time the region used and at most the wall time around the
// start and stop, however loaded the machine (other tasks lengthen the wall
// time, a hypervisor's steal adds to task-clock but not to the CPU time), so
// those two measured times bound it, with the same 10% slack as before for the
// clocks' granularity. Without them, the nominal bound.
bool WithinTimes(const Value &v, const Case &c) {
  if (!v.ok || v.cpu_ns <= 0 || v.wall_ns <= 0) return Within(v, c.low, c.high);
  return Within(v, v.cpu_ns * 0.9, v.wall_ns * 1.1);
}

// Whether this machine has a hardware PMU that counts instructions.
std::string HardwareMissing() {
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_INSTRUCTIONS;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
  if (fd >= 0) {
    close(static_cast<int>(fd));
    return "";
  }
  return strerror(errno);
}

// Everything on one CPU: the ping-pong partner and the workload then take
// turns, so each round trip switches the workload out exactly once.
void PinToOneCpu() {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed)) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    return;
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PATH/TO/pmapi_workload\n", argv[0]);
    return 2;
  }
  const std::string workload = argv[1];
  if (geteuid() != 0) {
    printf("skipped: counting the tracepoint needs root or CAP_PERFMON\n");
    return kSkip;
  }
  if (Spawn({"perf", "--version"}, false).status != 0) {
    printf("skipped: perf (linux-perf) is not installed\n");
    return kSkip;
  }
  PinToOneCpu();

  const long pages = 10000, calls = 100000, ms = 200, trips = 2000, instructions = 1000000;
  const double ns = ms * 1e6;
  const Case cases[] = {
      {"getppid", calls, double(calls), double(calls), double(calls), double(calls), double(calls),
       "exact"},
      {"faults", pages, double(pages), double(pages), pages * 1.01 + 32, pages * 0.99 - 32,
       pages * 1.01 + 32, "N..N+1%+32 (perf: +-1%+32)"},
      {"busy", ms, ns, ns * 0.9, ns * 1.1, ns * 0.9, ns * 1.1,
       "CPU time-10%..wall time+10% (perf: +-10%)"},
      {"switches", trips, double(trips), double(trips), trips * 1.1 + 20, trips * 0.9 - 20,
       trips * 1.1 + 20, "N..N+10%+20 (perf: +-10%+20)"},
      {"instructions", instructions, double(instructions), instructions * 0.99, instructions * 1.01,
       instructions * 0.99, instructions * 1.01, "+-1%"},
  };

  printf("| workload | event | N | expected | libpmapi | perf stat | PAPI | rule | result |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---|---|\n");
  bool all_ok = true;
  std::string notes;
  for (const Case &c : cases) {
    const Workload &w = *FindWorkload(c.kind);
    if (std::string(c.kind) == "instructions") {
      std::string missing = HardwareMissing();
      if (!missing.empty()) {
        printf("| %s | %s | %ld | %.0f | | | | %s | skipped: no hardware PMU (%s) |\n", c.kind,
               w.perf_name, c.n, c.expected, c.rule, missing.c_str());
        continue;
      }
    }
    const bool partner = std::string(c.kind) == "switches";
    const std::string size = std::to_string(c.n);
    Value pmapi = ParseCount(Spawn({workload, c.kind, size, "pmapi"}, partner));
    Value papi = ParseCount(Spawn({workload, c.kind, size, "papi"}, partner));
    Value perf = PerfDifference(workload, w, c.n);

    // Only our own count decides the result. A peer is a cross-check: one
    // that cannot count here (PAPI whose perf_event component disabled
    // itself, perf without the event) is shown as n/a with its own reason,
    // and one that counts outside the rule is named, not failed.
    // The busy workload's count is bounded by its own measured times.
    const bool busy = std::string(c.kind) == "busy";
    auto rule_holds = [&](const Value &v) {
      return busy ? WithinTimes(v, c) : Within(v, c.low, c.high);
    };
    std::string verdict = rule_holds(pmapi) ? "ok" : "FAILED: libpmapi";
    all_ok = all_ok && rule_holds(pmapi);
    std::string off;
    if (perf.ok && !Within(perf, c.perf_low, c.perf_high)) off += " perf";
    if (papi.ok && !rule_holds(papi)) off += " PAPI";
    if (!off.empty()) verdict += "; outside the rule:" + off;
    printf("| %s | %s | %ld | %.0f | %s | %s | %s | %s | %s |\n", c.kind, w.perf_name, c.n,
           c.expected, Cell(pmapi).c_str(), Cell(perf).c_str(), Cell(papi).c_str(), c.rule,
           verdict.c_str());
    if (busy && pmapi.ok) {
      char times[160];
      snprintf(times, sizeof times,
               "  busy, libpmapi: the region used %.0f ns of CPU in %.0f ns of wall time\n",
               pmapi.cpu_ns, pmapi.wall_ns);
      notes += times;
    }
    for (const auto &[who, v] : {std::pair<const char *, const Value &>{"libpmapi", pmapi},
                                 {"perf stat", perf},
                                 {"PAPI", papi}}) {
      if (!v.ok) notes += std::string("  ") + c.kind + ", " + who + ": n/a, " + v.why + "\n";
    }
  }
  if (!notes.empty()) printf("\nNotes (n/a cells and measured times):\n%s", notes.c_str());
  return all_ok ? 0 : 1;
}
