#include "hpm_session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <fstream>
#include <memory>

#include "aggregation.h"
#include "catalog/group_catalog.h"
#include "command.h"
#include "counting.h"
#include "hpm_report.h"
#include "multiplex_plan.h"
#include "output_file.h"  // src/tools/common: one policy for every tool's files
#include "program_plan.h"

namespace aix {
namespace {

constexpr int kUsage = 2;
constexpr int kFailed = 125;
constexpr int kNotExecutable = 126, kNotFound = 127;
constexpr long kMaxSliceMs = 86400L * 1000;

using pmcount::Sample;

// What a plan holds for reading: one plain plan, or the multiplexed one.
struct Programs {
  pmcount::Plan plan;
  pmcount::MultiplexPlan mx;
  bool multiplexed = false;
};

std::string FormulaOf(const pmcount::MetricDef &metric) {
  const pmapi::ResolvedGroup *group = pmapi::GroupCatalog::Get().FindName(metric.group);
  if (!group) return "";
  for (const pmapi::GroupMetric &m : group->record.metrics) {
    if (m.name == metric.name) return m.formula;
  }
  return "";
}

bool Wanted(const std::vector<std::string> &metrics, const std::string &name) {
  if (metrics.empty()) return true;
  for (const std::string &m : metrics) {
    if (m == name) return true;
  }
  return false;
}

// The sum over targets of `samples[first .. first + targets)`.
Sample Sum(const std::vector<Sample> &samples, size_t first, size_t targets) {
  Sample total;
  for (size_t t = first; t < first + targets && t < samples.size(); ++t) {
    const Sample &s = samples[t];
    if (s.rc != 0 && s.rc != Pmapi_Multiplexed) {
      if (total.rc == 0) total.rc = s.rc;
      continue;
    }
    for (int c = 0; c < MAX_COUNTERS; ++c) total.values[c] += s.values[c];
    total.enabled_ns = std::max(total.enabled_ns, s.enabled_ns);
    total.running_ns = std::max(total.running_ns, s.running_ns);
  }
  return total;
}

std::string Reason(int rc) {
  std::string text = pm_strerror("x", rc);
  if (text.compare(0, 3, "x: ") == 0) text.erase(0, 3);
  return text;
}

// One set's lines from its selection, its events' counters (-1: left out, with `reasons`) and
// its summed sample.
SetResult Result(const pmcount::Selection &selection, const std::vector<int> &counters,
                 const std::vector<std::string> &reasons, const Sample &sample, double seconds,
                 const Prepared &prepared) {
  SetResult set;
  if (selection.group) set.group = selection.group->record.short_name;
  set.seconds = seconds;
  std::vector<double> values(selection.events.size(), 0);
  std::vector<bool> counted(selection.events.size(), false);
  for (size_t e = 0; e < selection.events.size(); ++e) {
    EventLine line;
    line.name = selection.events[e].name;
    line.long_name = selection.events[e].entry->long_name;
    const int counter = counters[e];
    if (counter < 0) {
      line.counted = false;
      line.reason = reasons[e].empty() ? "not programmed" : reasons[e];
    } else if (sample.rc != 0 && sample.rc != Pmapi_Multiplexed) {
      line.counted = false;
      line.reason = Reason(sample.rc);
    } else {
      line.value = sample.values[counter];
      values[e] = static_cast<double>(line.value);
      counted[e] = true;
    }
    set.events.push_back(line);
  }
  for (const pmcount::MetricDef &metric : selection.metrics) {
    if (!Wanted(prepared.metrics, metric.name)) continue;
    MetricLine line;
    line.name = metric.name;
    line.formula = FormulaOf(metric);
    std::vector<double> members;
    bool complete = true;
    for (size_t index : metric.events) {
      complete = complete && counted[index];
      members.push_back(values[index]);
    }
    line.value = complete ? metric.formula->Evaluate(members, seconds) : NAN;
    set.metrics.push_back(line);
  }
  return set;
}

// Every set's lines from one reading; `targets` samples per set (CPUs, or 1 for a command).
std::vector<SetResult> Results(const Prepared &prepared, const Programs &programs,
                               const std::vector<Sample> &samples, size_t targets,
                               double wall_seconds) {
  std::vector<SetResult> sets;
  if (!programs.multiplexed) {
    const Sample total = Sum(samples, 0, targets);
    sets.push_back(Result(prepared.sets[0], programs.plan.counter_of_event, programs.plan.reasons,
                          total, wall_seconds, prepared));
    return sets;
  }
  for (size_t k = 0; k < prepared.sets.size(); ++k) {
    const Sample total = Sum(samples, k * targets, targets);
    const double seconds = static_cast<double>(total.running_ns) / 1e9;
    sets.push_back(Result(prepared.sets[k], programs.mx.counters[k], programs.mx.sets[k].reasons,
                          total, seconds, prepared));
  }
  return sets;
}

HpmReport BaseReport(const HpmOptions &options, const Prepared &prepared, bool multiplexed) {
  HpmReport report;
  report.mode = pmcount::ModeName(prepared.mode);
  report.notes = prepared.notes;
  report.multiplexed = multiplexed;
  report.detailed = options.detailed;
  report.formulas = options.extended;
  report.metrics = !options.microseconds;
  return report;
}

// Builds the programs; returns "" or why the sets cannot be counted together.
std::string MakePrograms(const Prepared &prepared, Programs *programs) {
  if (prepared.sets.size() == 1) {
    programs->plan = pmcount::MakePlan(prepared.sets[0], prepared.mode);
    return "";
  }
  programs->multiplexed = true;
  return pmcount::MakeMultiplexPlan(prepared.sets, prepared.mode, prepared.slice_ms, &programs->mx);
}

// Where the report goes: standard output, or the -o file, opened before anything runs by the
// tools' one output-file policy (src/tools/common/output_file.h: another user's link refused).
class Destination {
 public:
  bool Open(const std::string &path, std::string *error) {
    if (path.empty()) return true;
    *error = file_.OpenStream(path);
    return error->empty();
  }
  // Returns "" or "cannot write ...: why".
  std::string Write(const std::string &text) {
    if (file_.fd() >= 0) return file_.Write(text.data(), text.size());
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = write(STDOUT_FILENO, text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return std::string("cannot write standard output: ") + strerror(n < 0 ? errno : EIO);
      done += static_cast<size_t>(n);
    }
    return "";
  }

 private:
  tools::OutputFile file_;
};

std::vector<int> OnlineCpus() {
  std::ifstream file("/sys/devices/system/cpu/online");
  std::string text;
  std::getline(file, text);
  std::vector<int> cpus;
  if (!pmcount::ParseCpuList(text, &cpus).empty()) cpus.clear();
  return cpus;
}

std::string RealTimeStamp() {
  struct timeval now;
  gettimeofday(&now, nullptr);
  char text[64];
  snprintf(text, sizeof text, "%ld.%06ld", static_cast<long>(now.tv_sec),
           static_cast<long>(now.tv_usec));
  return text;
}

}  // namespace

std::string Prepare(const HpmOptions &options, const EventChoice &choice, Prepared *prepared) {
  Prepared out;
  out.metrics = choice.metrics;
  pmcount::Options base;
  if (options.tool == Tool::kHpmcount) {
    // AIX's hpmcount counts user mode unless -k adds the kernel's.
    base.user = true;
    base.kernel = options.kernel;
  } else {
    // hpmstat counts both unless -u or -k picks one.
    base.user = options.user || !options.kernel;
    base.kernel = options.kernel || !options.user;
  }
  if (options.hypervisor) {
    out.notes.push_back(
        "-H: Linux counts no hypervisor mode apart from the others (a guest has none to "
        "exclude); nothing more is counted");
  }
  if (options.time_base != "time") {
    out.notes.push_back("-b " + options.time_base + ": Linux has no " + options.time_base +
                        " register; times are the wall clock");
  }
  if (options.runlatch) out.notes.push_back("-r: Linux has no run latch; counting is unchanged");
  if (options.aggregate) {
    out.notes.push_back(
        "-a: hpmcount does not aggregate MPI tasks on Linux; link libpmapi-mpi into the job "
        "for a cross-rank summary (docs/mpi.md)");
  }
  if (!options.tuning.empty()) {
    out.notes.push_back("-O " + options.tuning + ": no such tuning on Linux; ignored");
  }
  if (const char *slice = getenv("HPM_SLICE_DURATION")) {
    char *end = nullptr;
    const long ms = strtol(slice, &end, 10);
    if (end == slice || *end != '\0' || ms < 1 || ms > kMaxSliceMs) {
      return "HPM_SLICE_DURATION '" + std::string(slice) +
             "' is not a whole number of ms from 1 to " + std::to_string(kMaxSliceMs);
    }
    out.slice_ms = ms;
  }
  std::vector<pmcount::Options> requests;
  if (!choice.groups.empty()) {
    for (const std::string &group : choice.groups) {
      pmcount::Options one = base;
      one.group = group;
      requests.push_back(one);
    }
  } else {
    pmcount::Options one = base;
    if (!choice.events.empty()) one.event_lists.push_back(choice.events);
    requests.push_back(one);
  }
  if (requests.size() > static_cast<size_t>(pmcount::kMaxMultiplexSets)) {
    return std::to_string(requests.size()) + " groups given; at most " +
           std::to_string(pmcount::kMaxMultiplexSets) + " are multiplexed";
  }
  for (const pmcount::Options &request : requests) {
    // pmcount's selection, and through it the library's pm_select_events.
    pmcount::Selection selection;
    std::string error = pmcount::SelectEvents(request, &selection);
    if (!error.empty()) return error;
    pmcount::Mode mode;
    error = pmcount::ChooseMode(request, selection, &mode, &out.notes);
    if (!error.empty()) return error;
    out.mode = mode;
    for (const std::string &note : selection.notes) out.notes.push_back(note);
    out.sets.push_back(std::move(selection));
  }
  for (const std::string &name : out.metrics) {
    bool known = false;
    for (const pmcount::Selection &set : out.sets) {
      for (const pmcount::MetricDef &metric : set.metrics) known = known || metric.name == name;
    }
    if (!known) {
      return "-D " + name + ": no derived metric of that name for these events (pmlist -D -1 " +
             "lists the metrics)";
    }
  }
  *prepared = std::move(out);
  return "";
}

int RunHpmcount(const HpmOptions &options, const Prepared &prepared) {
  Programs programs;
  std::string error = MakePrograms(prepared, &programs);
  if (!error.empty()) {
    fprintf(stderr, "hpmcount: %s\n", error.c_str());
    return kFailed;
  }
  Destination out;
  if (!options.output.empty() &&
      !out.Open(HpmcountOutputName(options.output, getenv("MP_CHILD"), getpid()), &error)) {
    fprintf(stderr, "hpmcount: %s\n", error.c_str());
    return kFailed;  // as pmcount: the command is not run
  }
  pmcount::BlockWaitedSignals();
  std::unique_ptr<pmcount::Counting> counting;
  auto arm = [&](pid_t pid) -> int {
    int rc;
    const char *call;
    if (programs.multiplexed) {
      call = "pm_set_program_group_mx";
      rc = pmcount::CountCommandMx(pid, programs.mx.prog, &counting);
    } else {
      call = "pm_set_program_group";
      rc = pmcount::Arm(
          &programs.plan,
          [&](const pm_prog_t &prog) { return pmcount::CountCommand(pid, prog, &counting); },
          [&] { counting.reset(); });
    }
    if (rc != 0) fprintf(stderr, "hpmcount: %s\n", pm_strerror(call, rc));
    return rc;
  };
  pmcount::Command command;
  const int rc = command.Start(options.command, arm);
  if (rc == -1) {
    const int err = command.exec_errno();
    fprintf(stderr, "hpmcount: cannot run '%s': %s\n", options.command[0].c_str(),
            err == ENOENT ? "command not found" : strerror(err));
    return err == ENOENT ? kNotFound : kNotExecutable;
  }
  if (rc != 0) return kFailed;
  const uint64_t start = pmcount::NowNs();
  pmcount::WaitLoop(&command, 0, 0, [] {});
  const uint64_t end = pmcount::NowNs();
  const size_t sets = programs.multiplexed ? prepared.sets.size() : 1;
  std::vector<Sample> samples(sets);
  if (counting) {
    const int read = counting->Read(&samples);
    if (read != 0) {
      for (Sample &sample : samples) sample.rc = read;
    }
    counting->Delete();
  }
  HpmReport report = BaseReport(options, prepared, programs.multiplexed);
  const std::string &program = options.command[0];
  report.workload =
      program.substr(program.rfind('/') == std::string::npos ? 0 : program.rfind('/') + 1);
  report.pid = command.pid();
  report.has_usage = true;
  report.usage = command.usage();
  report.wall_seconds = static_cast<double>(end - start) / 1e9;
  report.sets = Results(prepared, programs, samples, 1, report.wall_seconds);
  if (options.quiet && options.output.empty()) return command.exit_status();
  error = out.Write(FormatReport(report));
  // The command ran: its status is what a script tests; the message says what was lost.
  if (!error.empty()) fprintf(stderr, "hpmcount: %s\n", error.c_str());
  return command.exit_status();
}

int RunHpmstat(const HpmOptions &options, const Prepared &prepared) {
  if (!options.wpar.empty() && options.wpar != "ALL") {
    fprintf(stderr,
            "hpmstat: -@ %s: Linux has no workload partitions; -@ ALL counts the whole "
            "machine\n",
            options.wpar.c_str());
    return kUsage;
  }
  Programs programs;
  std::string error = MakePrograms(prepared, &programs);
  if (!error.empty()) {
    fprintf(stderr, "hpmstat: %s\n", error.c_str());
    return kFailed;
  }
  const std::vector<int> cpus = OnlineCpus();
  if (cpus.empty()) {
    fprintf(stderr, "hpmstat: cannot read the online CPUs from /sys/devices/system/cpu/online\n");
    return kFailed;
  }
  Destination out;
  if (!out.Open(options.output, &error)) {
    fprintf(stderr, "hpmstat: %s\n", error.c_str());
    return kFailed;
  }
  std::unique_ptr<pmcount::Counting> counting;
  int rc;
  const char *call;
  if (programs.multiplexed) {
    call = "pm_set_program_mx";
    rc = pmcount::CountSystemWideMx(programs.mx.prog, cpus, &counting);
  } else {
    call = "pm_set_program";
    rc = pmcount::Arm(
        &programs.plan,
        [&](const pm_prog_t &prog) { return pmcount::CountSystemWide(prog, cpus, &counting); },
        [&] { counting.reset(); });
  }
  if (rc != 0) {
    // The library's sentence says what privilege is missing and how to get it.
    fprintf(stderr, "hpmstat: %s\n", pm_strerror(call, rc));
    return kFailed;
  }
  pmcount::BlockWaitedSignals();
  const size_t sets = programs.multiplexed ? prepared.sets.size() : 1;
  std::vector<Sample> previous(sets * cpus.size());
  const uint64_t interval_ns =
      static_cast<uint64_t>(options.interval) * (options.microseconds ? 1000u : 1000000000u);
  for (long i = 0; options.count == 0 || i < options.count; ++i) {
    const uint64_t begin = pmcount::NowNs();
    const int signal = pmcount::WaitLoop(nullptr, begin + interval_ns, 0, [] {});
    const uint64_t end = pmcount::NowNs();
    std::vector<Sample> now(sets * cpus.size());
    if (counting) {
      const int read = counting->Read(&now);
      if (read != 0) {
        for (Sample &sample : now) sample.rc = read;
      }
    }
    std::vector<Sample> delta(now.size());
    for (size_t s = 0; s < now.size(); ++s) delta[s] = pmcount::Difference(now[s], previous[s]);
    previous = now;
    HpmReport report = BaseReport(options, prepared, programs.multiplexed);
    report.wall_seconds = static_cast<double>(end - begin) / 1e9;
    if (options.timestamps) report.timestamp = RealTimeStamp();
    report.sets = Results(prepared, programs, delta, cpus.size(), report.wall_seconds);
    error = out.Write(FormatReport(report));
    if (!error.empty()) {
      fprintf(stderr, "hpmstat: %s\n", error.c_str());
      return kFailed;
    }
    if (signal != 0) break;  // interrupted: the partial interval is reported, then stop
  }
  if (counting) counting->Delete();
  return 0;
}

}  // namespace aix
