// SPDX-License-Identifier: MIT
#include "hpm_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

#include "destination.h"
#include "pmapi_counting.h"
#include "session_counting.h"
#include "set_results.h"
#include "stopped_command.h"
#include "task_aggregate.h"

namespace aix {
namespace {

constexpr int kFailed = 125;

using tools::Sample;

// HPM_LOG_DIR: AIX's hpmcount also writes the report to <dir>/hpm_log.<pid> when the variable
// names an existing directory.
void WriteLog(const std::string &text) {
  const char *dir = getenv("HPM_LOG_DIR");
  if (!dir || !*dir) return;
  struct stat info;
  if (stat(dir, &info) != 0 || !S_ISDIR(info.st_mode)) {
    fprintf(stderr, "hpmcount: HPM_LOG_DIR '%s' is not a directory: no hpm_log file written\n",
            dir);
    return;
  }
  const std::string path = std::string(dir) + "/hpm_log." + std::to_string(getpid());
  const std::string error = tools::WriteOutputFile(path, text.data(), text.size());
  if (!error.empty()) fprintf(stderr, "hpmcount: %s\n", error.c_str());
}

// -a: this task's counts into the job's sum in HPM_LOG_DIR. What cannot be done is said; the
// command's status stands.
void Aggregate(const HpmReport &report) {
  const char *dir = getenv("HPM_LOG_DIR");
  const TaskIdentity task = IdentifyTask();
  std::string error;
  if (!dir || !*dir) {
    error = "HPM_LOG_DIR names no directory the tasks share";
  } else if (!task.why.empty()) {
    error = task.why;
  } else {
    std::string aggregate;
    error = AddToAggregate(dir, task, report, &aggregate);
  }
  if (!error.empty()) {
    fprintf(stderr, "hpmcount: -a: %s; no aggregate written, this task's report only\n",
            error.c_str());
  }
}

}  // namespace

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
  tools::BlockWaitedSignals();
  std::unique_ptr<tools::Counting> counting;
  auto arm = [&](pid_t pid) -> int {
    tools::SessionPlaces places;
    places.command = pid;  // the command and every thread and process it starts
    return ArmPrograms(
        &programs, "hpmcount", "pm_set_program_group",
        [&](const pm_prog_mx_t &mx) {
          return tools::CountCommandMx(pid, mx, /*on=*/true, &counting);
        },
        places, &counting);
  };
  tools::Command command;
  const int rc = command.Start(options.command, arm);
  if (rc == -1) return command.ExplainExecFailure("hpmcount", options.command[0]);
  if (rc != 0) return kFailed;
  const uint64_t start = tools::NowNs();
  tools::WaitLoop(&command, 0, 0, [] { return true; }, {});
  const uint64_t end = tools::NowNs();
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
  const std::string estimates = EstimatesNote(samples);
  if (!estimates.empty()) report.notes.push_back(estimates);
  const std::string text = FormatReport(report);
  // The command has ended: a reader gone from the pipe (hpmcount ... | head) must cost the
  // report, said on stderr, not the command's exit status. Not before: the command inherits
  // the disposition.
  signal(SIGPIPE, SIG_IGN);
  if (!options.quiet || !options.output.empty()) {
    error = out.Write(text);
    // The command ran: its status is what a script tests; the message says what was lost.
    if (!error.empty()) fprintf(stderr, "hpmcount: %s\n", error.c_str());
  }
  WriteLog(text);
  if (options.aggregate) Aggregate(report);
  return command.exit_status();
}

}  // namespace aix
