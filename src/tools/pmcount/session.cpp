// SPDX-License-Identifier: MIT
#include "session.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <functional>
#include <memory>

#include "final_interval.h"
#include "multiplex_plan.h"
#include "multiplex_rows.h"
#include "perf_metric.h"
#include "pmapi_counting.h"
#include "program_plan.h"
#include "session_counting.h"
#include "stopped_command.h"
#include "target_times.h"

namespace pmcount {
namespace {

constexpr int kCountingFailed = 125;

void SleepMs(long ms) {
  struct timespec left = {static_cast<time_t>(ms / 1000), (ms % 1000) * 1000000L};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

uint64_t Ns(const struct timeval &tv) {
  return static_cast<uint64_t>(tv.tv_sec) * 1000000000u + static_cast<uint64_t>(tv.tv_usec) * 1000u;
}

std::string UnitOf(const pmapi::CatalogEvent &entry) {
  const std::string &e = entry.encoding;
  if (e == "perf::PERF_COUNT_SW_TASK_CLOCK" || e == "perf::PERF_COUNT_SW_CPU_CLOCK") return "ns";
  return "";
}

// `mx`: the -T plan, else null (here and below).
void DescribeEvents(const Setup &setup, const Plan &plan, const MultiplexPlan *mx, Report *report) {
  report->events.clear();
  for (size_t e = 0; e < setup.selection.events.size(); ++e) {
    const SelectedEvent &event = setup.selection.events[e];
    EventInfo info;
    info.name = event.name;
    info.id = event.entry->id;
    info.unit = UnitOf(*event.entry);
    info.reason = plan.reasons[e];
    info.kind = PerfKindOf(event.entry->encoding);
    if (mx) info.set = mx->set_of_event[e] + 1;  // numbered from 1, as people count
    report->events.push_back(info);
  }
  report->metrics.clear();
  for (const MetricDef &metric : setup.selection.metrics) {
    report->metrics.push_back(MetricInfo{metric.name, metric.group});
  }
}

void ComputeMetrics(const Setup &setup, uint64_t span_ns, Row *row) {
  row->metrics.clear();
  for (const MetricDef &metric : setup.selection.metrics) {
    std::vector<double> values;
    bool complete = true;
    for (size_t index : metric.events) {
      const Cell &cell = row->cells[index];
      if (cell.state != CellState::kCounted) complete = false;
      values.push_back(cell.value);
    }
    row->metrics.push_back(complete ? metric.formula->Evaluate(values, span_ns / 1e9) : NAN);
  }
}

// Counts, rows and statistics of one reading (a whole run, or one interval's deltas).
// Rows of `samples` split by `aggregation`; with -T the estimates.
std::vector<Row> Rows(const Plan &plan, const MultiplexPlan *mx, const std::vector<Sample> &samples,
                      const std::vector<CpuPlace> &places, Aggregation aggregation) {
  if (!mx) return BuildRows(samples, places, aggregation, plan.counter_of_event);
  std::vector<Row> rows = BuildMultiplexRows(samples, places, aggregation, mx->counters);
  ScaleMultiplexed(mx->set_of_event, &rows);
  return rows;
}

// --per-thread: a row per attached target, labelled as perf labels it ("sleep-1234").
std::vector<Row> ThreadRows(const Setup &setup, const Plan &plan,
                            const std::vector<Sample> &samples) {
  std::vector<Row> rows;
  for (size_t t = 0; t < samples.size() && t < setup.targets.size(); ++t) {
    Row row = BuildRows({samples[t]}, {}, Aggregation::kTotal, plan.counter_of_event)[0];
    row.label = setup.targets[t].label;
    rows.push_back(row);
  }
  return rows;
}

Snapshot MakeSnapshot(const Setup &setup, const Plan &plan, const MultiplexPlan *mx,
                      const std::vector<Sample> &samples, uint64_t span_ns) {
  Snapshot snapshot;
  snapshot.span_ns = span_ns;
  if (setup.options->per_thread && !mx) {
    snapshot.rows = ThreadRows(setup, plan, samples);
    for (Row &row : snapshot.rows) ComputeMetrics(setup, span_ns, &row);
    return snapshot;
  }
  const std::vector<CpuPlace> &places =
      setup.options->system_wide ? setup.places : std::vector<CpuPlace>();
  snapshot.rows = Rows(plan, mx, samples, places, setup.options->aggregation);
  for (Row &row : snapshot.rows) ComputeMetrics(setup, span_ns, &row);
  if (setup.options->stats) {
    const std::vector<Row> per_cpu = Rows(plan, mx, samples, places, Aggregation::kPerCpu);
    snapshot.stats = CrossCpuStats(per_cpu, plan.counter_of_event.size());
  }
  return snapshot;
}

std::vector<Sample> EmptySamples(const Setup &setup) {
  const size_t targets = setup.options->system_wide  ? setup.cpus.size()
                         : setup.options->attached() ? setup.targets.size()
                                                     : 1;
  return std::vector<Sample>(targets * (setup.sets.empty() ? 1 : setup.sets.size()));
}

struct RunResult {
  std::vector<Sample> samples;
  uint64_t elapsed_ns = 0;
  uint64_t user_ns = 0, system_ns = 0;
  bool cpu_times_known = true;  // false: attached targets whose times could not be read
  int exit_status = 0;
  std::string ended;
};

class Runner {
 public:
  Runner(const Setup &setup, Plan *plan, const MultiplexPlan *mx, Report *report, Printer *printer,
         Output *output)
      : setup_(setup),
        options_(*setup.options),
        plan_(plan),
        mx_(mx),
        report_(report),
        printer_(printer),
        output_(output) {}

  // Returns 0, or pmcount's exit status for a failure already reported on stderr.
  int RunOnce(bool first, RunResult *result) {
    counting_.reset();
    // -D with a command: programmed off, started after the delay (perf's -D); attached
    // targets and -a alone are programmed after it.
    const bool delayed = options_.delay_ms > 0;
    const bool on = !delayed || options_.command.empty() || options_.attached();
    // The wall time starts when the counters are on, before the command is let go: on a busy
    // machine pmcount may get the CPU back only after a short command has finished, and a
    // clock read then would make its elapsed time (and CPUs utilized) absurd.
    uint64_t armed_at = 0;
    auto program = [&](pid_t pid) {
      if (mx_) return ArmMultiplexed(pid, on);
      SessionPlaces places;
      if (options_.attached()) {
        places.targets = setup_.targets;
      } else if (options_.system_wide) {
        places.cpus = setup_.cpus;
      } else {
        places.command = pid;
      }
      const int rc = CountWithSession(plan_, places, on, &counting_);
      if (rc != 0) {
        fprintf(stderr, "pmcount: %s\n", pm_strerror("pm_session_open", rc));
        return rc;
      }
      DescribeEvents(setup_, *plan_, mx_, report_);
      return 0;
    };
    auto arm = [&](pid_t pid) {
      const int rc = program(pid);
      armed_at = NowNs();
      return rc;
    };
    Command command;
    uint64_t start = 0;
    if (options_.command.empty()) {
      if (delayed) SleepMs(options_.delay_ms);
      if (arm(0) != 0) return kCountingFailed;
    } else {
      const int rc = command.Start(options_.command, arm);
      if (rc == -1) return command.ExplainExecFailure("pmcount", options_.command[0]);
      if (rc != 0) return kCountingFailed;
    }
    if (!on) {
      SleepMs(options_.delay_ms);  // the signals are blocked: a ^C now waits in the queue
      if (counting_) counting_->Start();
      armed_at = NowNs();
    } else if (delayed && !options_.command.empty()) {
      SleepMs(options_.delay_ms);  // attached targets: programmed when the delay is over
      if (arm(0) != 0) {
        command.Terminate();
        return kCountingFailed;
      }
    }
    start = armed_at ? armed_at : NowNs();
    // -p, -t: the targets' own CPU time over the count, not the timing command's.
    CpuTimes targets_before;
    const bool targets_read = options_.attached() && ReadCpuTimes(setup_.targets, &targets_before);
    // A failed write is remembered by output_ and reported at the end: the command runs on.
    if (first && options_.interval_ms) output_->Write(printer_->BeginIntervals(*report_));
    last_tick_ = start;
    start_ = start;
    previous_ = EmptySamples(setup_);
    const uint64_t interval_ns = static_cast<uint64_t>(options_.interval_ms) * 1000000u;
    const uint64_t deadline =
        options_.duration_s > 0 ? start + static_cast<uint64_t>(options_.duration_s * 1e9) : 0;
    intervals_ = 0;
    std::function<bool()> alive;
    if (options_.attached()) alive = [&] { return AnyTargetAlive(); };
    WaitLoop(
        options_.command.empty() ? nullptr : &command, deadline, interval_ns,
        [&] {
          Tick();
          return options_.interval_count == 0 || ++intervals_ < options_.interval_count;
        },
        alive);
    const uint64_t end = NowNs();
    CpuTimes targets_after;
    const bool targets_known = targets_read && ReadCpuTimes(setup_.targets, &targets_after);
    const bool count_reached = options_.interval_count > 0 && intervals_ >= options_.interval_count;
    // The last, partial interval; none after --interval-count's last.
    if (options_.interval_ms && end > last_tick_ && !count_reached) Tick(true);
    result->samples = Read();
    if (counting_) report_->rounds = counting_->rounds();
    if (counting_) {
      counting_->Delete();
    }
    result->elapsed_ns = end - start;
    if (!options_.command.empty()) {
      if (options_.attached()) {
        result->cpu_times_known = targets_known;
        if (targets_known) {
          result->user_ns = targets_after.user_ns - targets_before.user_ns;
          result->system_ns = targets_after.system_ns - targets_before.system_ns;
        }
      } else {
        result->user_ns = Ns(command.usage().ru_utime);
        result->system_ns = Ns(command.usage().ru_stime);
      }
      result->exit_status = command.exit_status();
      if (command.killed()) result->ended = command.how_it_ended();
      if (count_reached && command.killed() && result->exit_status == 128 + SIGTERM) {
        // pmcount ended it, as perf stat does: not the command's failure.
        result->exit_status = 0;
        result->ended = "ended by pmcount (SIGTERM) after --interval-count " +
                        std::to_string(options_.interval_count) + " intervals";
      }
    }
    return 0;
  }

 private:
  // -T: one _mx program for every set. No event-by-event retry as Arm does: the kernel's
  // refusal names the set, and pmcount reports it.
  int ArmMultiplexed(pid_t pid, bool on) {
    const int rc = options_.attached() ? CountAttachedMx(setup_.targets[0], mx_->prog, &counting_)
                   : options_.system_wide
                       ? CountSystemWideMx(mx_->prog, setup_.cpus, on, &counting_)
                       : CountCommandMx(pid, mx_->prog, on, &counting_);
    if (rc != 0) {
      fprintf(stderr, "pmcount: %s\n", pm_strerror((std::string(SetCall()) + "_mx").c_str(), rc));
      return rc;
    }
    DescribeEvents(setup_, *plan_, mx_, report_);
    return 0;
  }

  // The pmapi call that programs the -T sets, for messages.
  const char *SetCall() const {
    if (options_.system_wide) return "pm_set_program";
    if (options_.attached() && !setup_.targets.empty() && !setup_.targets[0].whole_process) {
      return "pm_set_program_thread";
    }
    return "pm_set_program_group";
  }

  // -p, -t: whether any target still runs (perf stat -p ends when they all have exited).
  bool AnyTargetAlive() const {
    for (const AttachTarget &t : setup_.targets) {
      // Not kill(tid, 0): a zombie nobody has reaped yet still takes signals.
      FILE *stat = fopen(("/proc/" + std::to_string(t.tid) + "/stat").c_str(), "r");
      if (!stat) continue;
      char state = 0;
      const int got = fscanf(stat, "%*d (%*[^)]) %c", &state);
      fclose(stat);
      if (got == 1 && state != 'Z' && state != 'X') return true;
    }
    return false;
  }

  std::vector<Sample> Read() {
    std::vector<Sample> samples = EmptySamples(setup_);
    if (counting_) {
      const int rc = counting_->Read(&samples);
      if (rc != 0) {
        for (Sample &sample : samples) sample.rc = rc;
      }
    }
    return samples;
  }

  // `last`: the partial interval after the wait loop ended, which an earlier tick may have
  // left empty (final_interval.h).
  void Tick(bool last = false) {
    const uint64_t now_ns = NowNs();
    std::vector<Sample> now = Read();
    std::vector<Sample> delta(now.size());
    for (size_t i = 0; i < now.size(); ++i) delta[i] = Difference(now[i], previous_[i]);
    if (!last || PrintFinalInterval(delta, last_tick_ > start_)) {
      Snapshot snapshot = MakeSnapshot(setup_, *plan_, mx_, delta, now_ns - last_tick_);
      snapshot.interval = true;
      snapshot.since_start_ns = now_ns - start_;
      output_->Write(printer_->Interval(*report_, snapshot));
    }
    previous_ = now;
    last_tick_ = now_ns;
  }

  const Setup &setup_;
  const Options &options_;
  Plan *plan_;
  const MultiplexPlan *mx_;
  Report *report_;
  Printer *printer_;
  Output *output_;
  std::unique_ptr<Counting> counting_;
  std::vector<Sample> previous_;
  uint64_t start_ = 0, last_tick_ = 0;
  long intervals_ = 0;  // printed in this run, for --interval-count
};

}  // namespace

bool Output::Write(const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (!error_) error_ = n < 0 ? errno : EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

int RunSession(const Setup &setup, Report *report, Printer *printer, Output *output) {
  const Options &options = *setup.options;
  Plan plan;
  MultiplexPlan mx;
  if (setup.sets.empty()) {
    plan = MakeSessionPlan(setup.selection, setup.mode);
  } else {
    const std::string error = MakeMultiplexPlan(setup.sets, setup.mode, options.multiplex_ms, &mx);
    if (!error.empty()) {
      fprintf(stderr, "pmcount: %s\n", error.c_str());
      return kCountingFailed;
    }
    plan = mx.flat;
  }
  const MultiplexPlan *multiplexed = setup.sets.empty() ? nullptr : &mx;
  DescribeEvents(setup, plan, multiplexed, report);
  BlockWaitedSignals();

  Runner runner(setup, &plan, multiplexed, report, printer, output);
  std::vector<std::vector<Row>> run_rows;
  std::vector<std::vector<Sample>> run_samples;
  std::vector<double> elapsed;
  RunResult last;
  for (int run = 0; run < options.repeat; ++run) {
    RunResult result;
    const int failed = runner.RunOnce(run == 0, &result);
    if (failed) return failed;
    run_samples.push_back(result.samples);
    elapsed.push_back(static_cast<double>(result.elapsed_ns));
    last = result;
    if (!result.ended.empty()) break;  // interrupted: report what was counted so far
  }

  report->runs = static_cast<int>(run_samples.size());
  report->has_times = true;
  MeanAndSpread(elapsed, &report->elapsed_ns, &report->elapsed_spread_pct);
  report->user_ns = last.user_ns;
  report->system_ns = last.system_ns;
  report->cpu_times_known = last.cpu_times_known;
  report->exit_status = last.exit_status;
  report->ended = last.ended;

  Snapshot final_snapshot;
  if (run_samples.size() == 1) {
    final_snapshot = MakeSnapshot(setup, plan, multiplexed, run_samples[0], last.elapsed_ns);
  } else {
    for (const std::vector<Sample> &samples : run_samples) {
      run_rows.push_back(MakeSnapshot(setup, plan, nullptr, samples, 0).rows);
    }
    final_snapshot.rows = MeanOfRuns(run_rows);
    final_snapshot.span_ns = static_cast<uint64_t>(report->elapsed_ns);
    for (Row &row : final_snapshot.rows) ComputeMetrics(setup, final_snapshot.span_ns, &row);
    if (options.stats) {  // across CPUs, of each CPU's mean over the runs
      std::vector<std::vector<Row>> per_cpu_runs;
      const std::vector<CpuPlace> &places = setup.places;
      for (const std::vector<Sample> &samples : run_samples) {
        per_cpu_runs.push_back(
            BuildRows(samples, places, Aggregation::kPerCpu, plan.counter_of_event));
      }
      final_snapshot.stats = CrossCpuStats(MeanOfRuns(per_cpu_runs), plan.counter_of_event.size());
    }
  }
  output->Write(printer->Final(*report, final_snapshot));
  if (output->failed()) {
    fprintf(stderr, "pmcount: cannot write the counts to %s: %s\n", output->name().c_str(),
            strerror(output->error()));
    // The command ran: its status is what a script tests, and the message says what was lost.
    if (options.command.empty()) return kCountingFailed;
  }
  return options.command.empty() ? 0 : last.exit_status;
}

}  // namespace pmcount
