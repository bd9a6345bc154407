// SPDX-License-Identifier: MIT
// cpuperf: traces the whole machine for a duration, or a command and its children, with the
// perfmon controller, saves each CPU's buffer and a session result spec, and prints the
// per-event tallies (or the records, or writes a Perfetto trace). See cpuperf.1.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include "lib/perfmon/controller.h"
#include "lib/perfmon/reader.h"
#ifdef CPUPERF_HAS_PPROF
#include "pprof_output.h"
#endif
#include "option_table.h"
#include "output_file.h"
#include "session_spec.h"
#include "stopped_command.h"
#include "tool_messages.h"
#include "trace_outputs.h"

namespace cpuperf {
namespace {

struct Options {
  SessionSpec spec;
  bool result_path_given = false;
  bool dump = false;
  bool summary = true;
  std::string perfetto_path;
  std::string pprof_path;
  std::vector<std::string> command;
};

// As every tool of the project (docs/tools.md): 2 for what the user wrote wrong, 125 when
// cpuperf itself fails, so that neither is taken for the command's own status.
constexpr int kFailed = 125;

int UsageError(const std::string &message) { return tools::UsageError("cpuperf", message); }

int Fail(const std::string &message) {
  fprintf(stderr, "cpuperf: %s\n", message.c_str());
  return kFailed;
}

int ListEvents() {
  const struct {
    int group;
    const char *name;
  } groups[] = {{PERFMON_GROUP_ARCH, "arch"},   {PERFMON_GROUP_FIXED, "fixed"},
                {PERFMON_GROUP_MODEL, "model"}, {PERFMON_GROUP_MISC, "misc"},
                {PERFMON_GROUP_LINUX, "linux"}, {PERFMON_GROUP_TRACEPOINT, "tracepoint"}};
  for (const auto &group : groups) {
    std::vector<std::string> names;
    int last_group =
        group.group == PERFMON_GROUP_TRACEPOINT ? PERFMON_GROUP_TRACEPOINT_HI : group.group;
    for (int g = group.group; g <= last_group; ++g) {
      for (int e = 0; e <= PERFMON_MAX_EVENT; ++e) {
        char name[256];
        if (perfmon_event_name(PERFMON_MAKE_EVENT_ID(g, e), name, sizeof name) == ZX_OK) {
          names.push_back(strchr(name, ':') + 1);
        }
      }
    }
    std::sort(names.begin(), names.end());
    printf("\nGroup %s\n", group.name);
    for (const std::string &name : names) printf("%s\n", name.c_str());
  }
  return 0;
}

int DescribeEvent(const std::string &text) {
  perfmon_event_id_t id = 0;
  zx_status_t status = perfmon_lookup_event(nullptr, text.c_str(), &id);
  if (status != ZX_OK)
    return UsageError("no event " + text + " here (" + perfmon_status_name(status) + ")");
  printf("%s: id 0x%04x (group %u, event %u)\n", text.c_str(), id, PERFMON_EVENT_ID_GROUP(id),
         PERFMON_EVENT_ID_EVENT(id));
  return 0;
}

// What an option asks to do instead of a run (--help, --list-events, --describe-event).
struct EarlyExit {
  enum Kind { kNone, kHelp, kVersion, kList, kDescribe } kind = kNone;
  std::string event;
};

// cpuperf's options, each one row (tools::OptionTable): --help lists the same rows.
tools::OptionTable Table(Options *options, std::vector<EventSpec> *events, EarlyExit *early) {
  using Value = const std::string &;
  SessionSpec &spec = options->spec;
  auto set = [](std::string *field) {
    return [field](Value value, Value) {
      *field = value;
      return std::string();
    };
  };
  auto exit_with = [early](EarlyExit::Kind kind) {
    return [early, kind](Value value, Value) {
      if (early->kind == EarlyExit::kNone) *early = {kind, value};  // the first one wins
      return std::string();
    };
  };
  return tools::OptionTable({
      {"spec-file", 0, "=FILE", "a session spec (JSON, .cpspec)",
       [](Value, Value) { return std::string(); }},  // read before the other options
      {"event", 'e', "=GROUP:NAME[@RATE][/FLAGS]",
       "an event (repeatable); FLAGS: os+user+pc+timebase+last_branch",
       [events](Value value, Value) {
         EventSpec event;
         std::string error = ParseEventArgument(value, &event);
         if (error.empty()) events->push_back(event);
         return error;
       }},
      {"buffer-size-mb", 0, "=N", "buffer per CPU (default 16; 4 KiB when only counting)",
       [&spec](Value value, Value) -> std::string {
         char *end = nullptr;
         unsigned long mb = strtoul(value.c_str(), &end, 10);
         if (end == value.c_str() || *end || mb < 1 || mb > PERFMON_MAX_BUFFER_PAGES / 256) {
           return "--buffer-size-mb: must be an integer from 1 to 256";
         }
         spec.buffer_size_in_mb = static_cast<uint32_t>(mb);
         return "";
       }},
      {"duration", 0, "=SECONDS", "how long to trace the machine (no command; default 10)",
       [&spec](Value value, Value) -> std::string {
         char *end = nullptr;
         double seconds = strtod(value.c_str(), &end);
         if (end == value.c_str() || *end || !(seconds > 0) || seconds > 86400) {
           return "--duration: must be a number of seconds above 0 (at most a day)";
         }
         spec.duration = seconds;
         return "";
       }},
      {"iterations", 0, "=N", "runs (default 1)",
       [&spec](Value value, Value) -> std::string {
         char *end = nullptr;
         unsigned long n = strtoul(value.c_str(), &end, 10);
         if (end == value.c_str() || *end || n < 1 || n > 1000000) {
           return "--iterations: must be an integer from 1 to 1000000";
         }
         spec.num_iterations = static_cast<uint32_t>(n);
         return "";
       }},
      {"output-prefix", 0, "=PATH", "buffers go to PATH.<iteration>.<cpu>.cpuperf (./cpuperf)",
       set(&spec.output_path_prefix)},
      {"session-result", 0, "=PATH", "the session result spec (default PREFIX.cpsession)",
       [options](Value value, Value) {
         options->spec.session_result_spec_path = value;
         options->result_path_given = true;
         return std::string();
       }},
      {"dump", 0, nullptr, "print every record instead of the tallies",
       [options](Value, Value) {
         options->dump = true;
         options->summary = false;
         return std::string();
       }},
      {"perfetto", 0, "=FILE", "write a Chrome JSON trace (counter tracks per event and CPU)",
       set(&options->perfetto_path)},
      {"pprof", 0, "=FILE", "write the PC records as a pprof profile (go tool pprof)",
       set(&options->pprof_path)},
      {"quiet", 0, nullptr, "no tallies",
       [options](Value, Value) {
         options->summary = false;
         return std::string();
       }},
      {"list-events", 0, nullptr, "the events this machine has, by group",
       exit_with(EarlyExit::kList)},
      {"describe-event", 0, "=GROUP:NAME", "an event's id, group and number",
       exit_with(EarlyExit::kDescribe)},
      {"help", 'h', nullptr, "this text", exit_with(EarlyExit::kHelp)},
      {"version", 0, nullptr, "the version", exit_with(EarlyExit::kVersion)},
  });
}

void Usage(FILE *out) {
  Options options;
  std::vector<EventSpec> events;
  EarlyExit early;
  fprintf(out, "usage: cpuperf [options] [-- command [args...]]\n%s",
          Table(&options, &events, &early).Help().c_str());
}

std::string ParseOptions(int argc, char **argv, Options *options, int *early_exit) {
  SessionSpec &spec = options->spec;
  std::vector<EventSpec> events;
  // The command line overrides the spec file wherever both speak: read the file first.
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; ++i) {
    if (strncmp(argv[i], "--spec-file=", 12) != 0) continue;
    std::ifstream file(argv[i] + 12);
    if (!file) return std::string(argv[i] + 12) + ": cannot read: " + strerror(errno);
    std::stringstream text;
    text << file.rdbuf();
    Json document;
    std::string error = ParseJson(text.str(), &document);
    if (error.empty()) error = ReadSpec(document, &spec);
    if (!error.empty()) return std::string(argv[i] + 12) + ": " + error;
    options->result_path_given = document.Find("session_result_spec_path") != nullptr;
  }
  EarlyExit early;
  const tools::OptionError bad =
      Table(options, &events, &early)
          .Parse(std::vector<std::string>(argv + 1, argv + argc), &options->command);
  // An early exit named before a bad option wins, as when the parse stopped there.
  switch (early.kind) {
    case EarlyExit::kList:
      *early_exit = ListEvents();
      return "";
    case EarlyExit::kDescribe:
      *early_exit = DescribeEvent(early.event);
      return "";
    case EarlyExit::kHelp:
      Usage(stdout);
      *early_exit = 0;
      return "";
    case EarlyExit::kVersion:
      *early_exit = tools::PrintVersion("cpuperf");
      return "";
    case EarlyExit::kNone:
      break;
  }
  if (bad) return bad.message;
  if (!events.empty()) spec.events = events;
  if (spec.events.size() > PERFMON_MAX_NUM_EVENTS) return "events: at most 32";
  if (!options->result_path_given) {
    spec.session_result_spec_path = spec.output_path_prefix + ".cpsession";
  }
  if (!options->pprof_path.empty()) {
#ifndef CPUPERF_HAS_PPROF
    return "--pprof: this cpuperf was built without compat/fuchsia/common";
#endif
    bool pcs = false;
    for (const EventSpec &event : spec.events) pcs = pcs || (event.flags & PERFMON_FLAG_COLLECT_PC);
    if (!pcs) return "--pprof: profiles PC records, and no event collects them (add /pc)";
  }
  return ResolveEvents(&spec);
}

std::string BufferPath(const SessionSpec &spec, uint32_t iteration, uint32_t trace) {
  return spec.output_path_prefix + "." + std::to_string(iteration) + "." + std::to_string(trace) +
         ".cpuperf";
}

// Every file the run will write, checked before the command runs: a path that cannot be
// written is found before the work that would be lost (pmcount's -o is checked the same way).
std::string CheckOutputs(const Options &options, uint32_t traces) {
  const SessionSpec &spec = options.spec;
  std::vector<std::string> paths = {spec.session_result_spec_path};
  if (!options.perfetto_path.empty()) paths.push_back(options.perfetto_path);
  if (!options.pprof_path.empty()) paths.push_back(options.pprof_path);
  // Every iteration's buffers while that is a few thousand files; beyond, the first
  // iteration's (the others are in the same directory).
  const uint32_t checked = uint64_t{spec.num_iterations} * traces <= 4096 ? spec.num_iterations : 1;
  for (uint32_t i = 0; i < checked; ++i) {
    for (uint32_t t = 0; t < traces; ++t) paths.push_back(BufferPath(spec, i, t));
  }
  for (const std::string &path : paths) {
    std::string error = tools::CheckOutputFile(path);
    if (!error.empty()) return error;
  }
  return "";
}

std::string SaveBuffers(perfmon::Controller *controller, uint32_t iteration, uint32_t traces,
                        size_t size, const SessionSpec &spec, std::vector<SavedTrace> *saved) {
  for (uint32_t t = 0; t < traces; ++t) {
    int fd = -1;
    if (controller->GetBufferHandle(t, &fd) != ZX_OK) return controller->last_error();
    void *map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return std::string("mapping a buffer: ") + strerror(errno);
    perfmon_reader_t reader;
    SavedTrace trace;
    trace.iteration = iteration;
    trace.trace = t;
    size_t end = perfmon_reader_init(&reader, map, size) == ZX_OK ? reader.end : 24;
    const uint8_t *bytes = static_cast<const uint8_t *>(map);
    trace.bytes.assign(bytes, bytes + end);
    munmap(map, size);
    std::string error = tools::WriteOutputFile(BufferPath(spec, iteration, t), trace.bytes.data(),
                                               trace.bytes.size());
    if (!error.empty()) return error;
    saved->push_back(std::move(trace));
  }
  return "";
}

std::string WriteResultSpec(const SessionSpec &spec, uint32_t iterations, uint32_t traces) {
  tools::OutputFile file;
  std::string error = file.Open(spec.session_result_spec_path);
  if (!error.empty()) return error;
  fprintf(file.stream(),
          "{\n  \"config_name\": %s,\n  \"model_name\": %s,\n  \"num_iterations\": %u,\n"
          "  \"num_traces\": %u,\n  \"output_path_prefix\": %s\n}\n",
          tools::JsonString(spec.config_name).c_str(), tools::JsonString(spec.model_name).c_str(),
          iterations, traces, tools::JsonString(spec.output_path_prefix).c_str());
  return file.Commit();
}

const char *SignalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

int Run(int argc, char **argv) {
  // Before any thread exists (the controller's drain thread), so that every thread has them
  // blocked and the wait below takes them.
  tools::BlockWaitedSignals();
  Options options;
  int early_exit = -1;
  std::string error = ParseOptions(argc, argv, &options, &early_exit);
  if (early_exit >= 0) return early_exit;
  if (!error.empty()) return UsageError(error);
  const SessionSpec &spec = options.spec;
  uint32_t traces = static_cast<uint32_t>(sysconf(_SC_NPROCESSORS_ONLN));
  error = CheckOutputs(options, traces);
  if (!error.empty()) return Fail(error + " (nothing was run)");

  std::unique_ptr<perfmon::Controller> controller;
  zx_status_t status = perfmon::Controller::Open(&controller);
  if (status != ZX_OK)
    return Fail(std::string("cannot open the controller: ") + perfmon_status_name(status));
  bool tally_only = true;
  for (const EventSpec &event : spec.events) tally_only = tally_only && event.rate == 0;
  // Counting alone writes a few records per CPU: one page holds them (as Fuchsia's cpuperf).
  uint32_t pages = tally_only ? 1 : spec.buffer_size_in_mb * 256;
  status = controller->Initialize({traces, pages});
  if (status != ZX_OK) {
    return Fail(std::string("Initialize: ") + perfmon_status_name(status) + ": " +
                controller->last_error());
  }
  status = controller->StageConfig(MakeConfig(spec));
  if (status != ZX_OK) {
    const std::string message =
        std::string("the config: ") + perfmon_status_name(status) + ": " + controller->last_error();
    // INVALID_ARGS: the spec broke a rule; anything else is this machine's answer.
    return status == ZX_ERR_INVALID_ARGS ? UsageError(message) : Fail(message);
  }
  int exit_code = 0;
  int stopped_by = 0;
  uint32_t iterations = 0;
  std::vector<SavedTrace> saved;
  std::vector<perfmon_mapping_t> mappings;  // of every iteration, for --pprof
  for (uint32_t iteration = 0; iteration < spec.num_iterations && !stopped_by; ++iteration) {
    // Held before its exec, so that the trace sees the exec and everything after it.
    std::unique_ptr<tools::Command> command;
    if (!options.command.empty()) {
      command = std::make_unique<tools::Command>();
      if (command->StartHeld(options.command) != 0)
        return Fail(std::string("fork: ") + strerror(command->exec_errno()));
      controller->SetTarget({command->pid(), 1});
    }
    status = controller->Start();
    if (status != ZX_OK) {
      return Fail(std::string("Start: ") + perfmon_status_name(status) + ": " +
                  controller->last_error());
    }
    // An exec that failed: said here; the command's status (127, 126) is then cpuperf's.
    if (command && command->Release() != 0)
      command->ExplainExecFailure("cpuperf", options.command[0]);
    // Without a command, the duration: a deadline of now ends the wait at once.
    const uint64_t deadline =
        tools::NowNs() + std::max<uint64_t>(1, static_cast<uint64_t>(spec.duration * 1e9));
    stopped_by = tools::WaitLoop(command.get(), deadline, 0, [] { return true; }, {});
    if (command) exit_code = command->exit_status();
    controller->Stop();
    std::vector<perfmon_mapping_t> made;
    if (controller->GetMappings(&made) == ZX_OK) {
      mappings.insert(mappings.end(), made.begin(), made.end());
    }
    ++iterations;
    error = SaveBuffers(controller.get(), iteration, traces, size_t{pages} * PERFMON_PAGE_SIZE,
                        spec, &saved);
    if (!error.empty()) break;
  }
  if (stopped_by) {
    fprintf(stderr, "cpuperf: %s: stopped after %u of %u iterations; what was traced is saved\n",
            SignalName(stopped_by), iterations, spec.num_iterations);
  }
  // An output that cannot be written (after the checks, a full disk say) does not stop the
  // others, nor the tallies: each loss is said on stderr. After the command ran its status
  // stays cpuperf's, as pmcount does; without a command a loss exits 125.
  bool lost = !error.empty();
  if (lost) {
    Fail(error);  // a buffer: the session result would name files that are not there
  } else {
    error = WriteResultSpec(spec, iterations, traces);
    if (!error.empty()) {
      Fail(error);
      lost = true;
    }
  }
  if (options.summary) PrintTallies(stdout, spec, saved);
  if (options.dump && !PrintRecords(stdout, saved)) exit_code = exit_code ? exit_code : kFailed;
  if (!options.perfetto_path.empty()) {
    error = WriteChromeTrace(options.perfetto_path, spec, saved);
    if (!error.empty()) {
      Fail(error);
      lost = true;
    }
  }
#ifdef CPUPERF_HAS_PPROF
  if (!options.pprof_path.empty()) {
    size_t samples = 0;
    error = WritePprof(options.pprof_path, spec, saved, mappings, &samples);
    if (!error.empty()) {
      Fail(error);
      lost = true;
    }
  }
#endif
  if (lost && options.command.empty()) return kFailed;
  return exit_code;
}

}  // namespace
}  // namespace cpuperf

int main(int argc, char **argv) {
  try {
    return cpuperf::Run(argc, argv);
  } catch (const std::exception &e) {
    fprintf(stderr, "cpuperf: %s\n", e.what());
    return cpuperf::kFailed;
  }
}
