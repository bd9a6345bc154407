// SPDX-License-Identifier: MIT
// pmsample: where a program spends its time. Samples a command (and everything it starts) or a
// running process with the thread sampler, then prints the hottest functions and writes what
// was asked for: an FXT trace, a pprof profile, folded stacks, a flame graph, the raw per-CPU
// regions. See pmsample(1).
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "fuchsia_common/fxt.h"
#include "option_table.h"
#include "output_file.h"
#include "outputs.h"
#include "recording.h"
#include "stopped_command.h"
#include "tool_messages.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace {

constexpr int kFailed = 125;  // pmsample itself failed (before the command: it is not run)

struct Options {
  int64_t period_ns = 1000000;  // 1000 samples per second of a thread's CPU time
  // -e: the event the period counts instead of CPU-time nanoseconds (none: task-clock).
  uint32_t event_type = PERF_TYPE_SOFTWARE;
  uint64_t event_config = PERF_COUNT_SW_TASK_CLOCK;
  bool frequency = false;  // -F given: a period of time
  std::string trace;       // -o: nothing is written unless asked for
  std::string pprof;
  std::string folded;      // --folded
  std::string flamegraph;  // --flamegraph (.svg, or .html for a page)
  std::string raw;
  size_t top = 10;
  size_t buffer_mb = 64;
  pid_t pid = 0;
  double duration = 0;  // -p: seconds, 0 = until the process exits or SIGINT
  bool quiet = false;
  uint32_t unwind = ZX_SAMPLER_UNWIND_FRAME_POINTERS;  // --call-graph
  uint32_t stack_bytes = 0;                            // dwarf,SIZE (0: the library's 8 KiB)
  std::vector<char*> command;
};

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_interrupted = 0;

void OnSignal(int signal) {
  g_interrupted = 1;
  if (g_child > 0) kill(g_child, signal);
}

// Seconds written in decimal (2, 0.5), above 0 and at most a year: no sign, exponent or hex.
bool ParseSeconds(const std::string& text, double* value) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !(v > 0) || v > 365 * 86400.0) return false;
  *value = v;
  return true;
}

// The kernel's largest process id (PID_MAX_LIMIT), as pmcount takes them.
constexpr long long kMaxPid = 4194304;
// A period longer than this (1000 s of CPU time) samples nothing worth a profile.
constexpr long long kMaxPeriod = 1000000000000;

// --call-graph fp | dwarf[,bytes], as perf record takes it (no lbr: there is no such unwinding
// here).
bool ParseCallGraph(const std::string& text, Options* o) {
  if (text == "fp") {
    o->unwind = ZX_SAMPLER_UNWIND_FRAME_POINTERS;
    return true;
  }
  if (text.compare(0, 5, "dwarf") != 0 || (text.size() > 5 && text[5] != ',')) return false;
  o->unwind = ZX_SAMPLER_UNWIND_DWARF;
  o->stack_bytes = 0;
  if (text.size() == 5) return true;
  long long v = 0;
  if (!tools::ParseWholeNumber(text.substr(6), 1, ZX_SAMPLER_UNWIND_MAX_STACK, &v)) return false;
  // Rounded up to whole words, as perf does.
  o->stack_bytes = static_cast<uint32_t>((static_cast<uint64_t>(v) + 7) / 8 * 8);
  return o->stack_bytes <= ZX_SAMPLER_UNWIND_MAX_STACK;
}

// A row's answer that is no sentence: stop for --help or --version, which answer where they
// stand, as getopt's loop did (what follows them is not looked at).
constexpr char kHelp[] = "\x02";
constexpr char kVersion[] = "\x03";

// pmsample's options, each one row (tools::OptionTable): --help lists the same rows.
tools::OptionTable Table(Options* o) {
  // (--help and --version are the rows that stop the parse: ParseOptions answers them.)
  using Value = const std::string&;
  using tools::WholeNumber;
  auto set = [](std::string* field) {
    return [field](Value value, Value) {
      *field = value;
      return std::string();
    };
  };
  return tools::OptionTable({
      {"freq", 'F', "HZ", "samples per second of a thread's CPU time, 1 to 100000 (default 1000)",
       WholeNumber("rate", 1, 100000,
                   [o](long long v) {
                     o->period_ns = 1000000000 / v;
                     o->frequency = true;
                   })},
      {"period", 0, "NS", "the period itself, at least 10000 ns (events with -e)",
       WholeNumber("period", 10000, kMaxPeriod, [o](long long v) { o->period_ns = v; })},
      {"event", 'e', "EVENT",
       "instructions or cycles: a sample every --period of them, counted by the PMU",
       // The hardware counts a thread's instructions or cycles: a sample every --period of them.
       [o](Value name, Value) -> std::string {
         if (name == "instructions") {
           o->event_config = PERF_COUNT_HW_INSTRUCTIONS;
         } else if (name == "cycles") {
           o->event_config = PERF_COUNT_HW_CPU_CYCLES;
         } else {
           return "-e takes instructions or cycles";
         }
         o->event_type = PERF_TYPE_HARDWARE;
         return "";
       }},
      {"output", 'o', "FILE", "an FXT trace, for Perfetto (none by default)", set(&o->trace)},
      {"pprof", 0, "FILE", "a gzipped pprof profile (go tool pprof)", set(&o->pprof)},
      {"folded", 0, "FILE", "the stacks folded, one line per stack with its samples",
       set(&o->folded)},
      {"flamegraph", 0, "FILE", "a flame graph: FILE.svg, or FILE.html for a page",
       set(&o->flamegraph)},
      {"raw", 0, "PREFIX", "each CPU's region as written, in PREFIX.cpuN", set(&o->raw)},
      {"top", 0, "N", "functions in the summary (default 10)",
       WholeNumber("count", 1, 1000000, [o](long long v) { o->top = static_cast<size_t>(v); })},
      {"buffer-mb", 0, "N", "each CPU region's size in MiB, 1 to 1024 (default 64)",
       WholeNumber("size", 1, 1024, [o](long long v) { o->buffer_mb = static_cast<size_t>(v); })},
      {"pid", 'p', "PID", "sample a running process instead of a command",
       WholeNumber("process id", 1, kMaxPid, [o](long long v) { o->pid = static_cast<pid_t>(v); })},
      {"duration", 'd', "SECONDS", "with -p, stop after this long",
       [o](Value text, Value spelled) -> std::string {
         if (ParseSeconds(text, &o->duration)) return "";
         return "bad duration '" + text + "' for " + spelled +
                ": give seconds greater than 0, such as 2 or 0.5, at most a year";
       }},
      {"call-graph", 0, "fp|dwarf[,BYTES]",
       "stacks by frame pointers (default), or by DWARF CFI on BYTES of stack (8192)",
       [o](Value text, Value) -> std::string {
         if (ParseCallGraph(text, o)) return "";
         return "--call-graph takes fp (frame pointers, the default) or dwarf[,bytes] (bytes "
                "of stack copied per sample, up to " +
                std::to_string(ZX_SAMPLER_UNWIND_MAX_STACK) + "; 8192 by default), not '" + text +
                "'";
       }},
      {"quiet", 'q', nullptr, "no summary",
       [o](Value, Value) {
         o->quiet = true;
         return std::string();
       }},
      {"help", 'h', nullptr, "this text", [](Value, Value) { return std::string(kHelp); }},
      {"version", 0, nullptr, "the version", [](Value, Value) { return std::string(kVersion); }},
  });
}

// The synopsis and the options, for --help.
void Usage(FILE* out) {
  Options unused;
  std::fprintf(out,
               "usage: pmsample [-F hz | --period ns] [-e instructions|cycles --period n]\n"
               "                [-o trace.fxt] [--pprof file] [--raw prefix]\n"
               "                [--folded file] [--flamegraph file.svg|file.html]\n"
               "                [--call-graph fp|dwarf[,bytes]] [--top n] [--buffer-mb n] [-q]\n"
               "                -- command [args...]\n"
               "       pmsample [options] -p pid [-d seconds]\n%s",
               Table(&unused).Help().c_str());
}

int ParseOptions(int argc, char** argv, Options* o) {
  std::vector<std::string> rest;
  const tools::OptionError error =
      Table(o).Parse(std::vector<std::string>(argv + 1, argv + argc), &rest);
  if (error.kind == tools::OptionError::kHandler && error.message == kHelp) {
    Usage(stdout);
    std::exit(0);
  }
  if (error.kind == tools::OptionError::kHandler && error.message == kVersion) {
    std::exit(tools::PrintVersion("pmsample"));
  }
  if (error) return tools::UsageError("pmsample", error.message);
  if (o->frequency && o->event_type != PERF_TYPE_SOFTWARE) {
    return tools::UsageError("pmsample",
                             "-F is per second of CPU time; with -e give --period events");
  }
  for (int i = argc - static_cast<int>(rest.size()); i < argc; ++i) o->command.push_back(argv[i]);
  if (o->pid != 0 && !o->command.empty()) {
    return tools::UsageError("pmsample",
                             "-p samples a running process: give it or a command, not both");
  }
  if (o->pid == 0 && o->command.empty()) {
    return tools::UsageError("pmsample",
                             "nothing to sample: give a command (pmsample -- command) or -p PID");
  }
  return 0;
}

int Fail(const char* what, zx_status_t status) {
  std::fprintf(stderr, "pmsample: %s: %s: %s\n", what, zx_sampler_status_name(status),
               zx_sampler_last_error());
  return kFailed;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "pmsample: %s\n", message.c_str());
  return kFailed;
}

// The files to write, opened before anything runs (src/tools/common/output_file.h); --raw has
// one per region, that is per possible CPU, as the sampler makes them.
struct Outputs {
  tools::OutputFile trace, pprof, folded, flamegraph;
  std::vector<tools::OutputFile> raw;
};

bool OpenOutputs(const Options& options, Outputs* outputs, std::string* error) {
  auto open = [error](tools::OutputFile& file, const std::string& path) {
    *error = file.Open(path);
    return error->empty();
  };
  if (!options.trace.empty() && !open(outputs->trace, options.trace)) return false;
  if (!options.pprof.empty() && !open(outputs->pprof, options.pprof)) return false;
  if (!options.folded.empty() && !open(outputs->folded, options.folded)) return false;
  if (!options.flamegraph.empty() && !open(outputs->flamegraph, options.flamegraph)) return false;
  if (options.raw.empty()) return true;
  long regions = sysconf(_SC_NPROCESSORS_CONF);
  outputs->raw.resize(static_cast<size_t>(regions < 1 ? 1 : regions));
  for (size_t i = 0; i < outputs->raw.size(); ++i)
    if (!open(outputs->raw[i], pmsample::RawRegionPath(options.raw, i))) return false;
  return true;
}

// True if `pid` is no process, or one that has exited and waits for its parent (a zombie,
// which still answers kill(pid, 0) but has no memory left to sample).
bool ProcessGone(pid_t pid) {
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(file, stat);
  size_t name_end = stat.rfind(')');  // "pid (comm) S ...", comm may hold ')' or spaces
  if (name_end == std::string::npos || name_end + 2 >= stat.size()) return false;
  char state = stat[name_end + 2];
  return state == 'Z' || state == 'X';
}

std::string ProgramOf(pid_t pid) {
  char path[4096];
  std::string link = "/proc/" + std::to_string(pid) + "/exe";
  ssize_t n = readlink(link.c_str(), path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : "";
}

std::string ReadComm(pid_t pid, pid_t tid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/comm");
  std::string name;
  std::getline(file, name);
  return name;
}

std::vector<pid_t> Threads(pid_t pid) {
  std::vector<pid_t> tids;
  std::string path = "/proc/" + std::to_string(pid) + "/task";
  if (DIR* dir = opendir(path.c_str())) {
    while (dirent* entry = readdir(dir))
      if (entry->d_name[0] != '.') tids.push_back(static_cast<pid_t>(std::atoi(entry->d_name)));
    closedir(dir);
  }
  return tids;
}

// Attaches every thread of `pid`, again until a pass finds none new: a thread created after
// its creator was attached is attached by the kernel (ZX_SAMPLER_ATTACH_DESCENDANTS).
zx_status_t AttachProcess(zx_handle_t session, pid_t pid, pmsample::Recording* recording) {
  std::set<pid_t> attached;
  for (bool more = true; more;) {
    more = false;
    for (pid_t tid : Threads(pid)) {
      if (attached.count(tid)) continue;
      zx_status_t status = zx_sampler_attach_etc(session, static_cast<zx_handle_t>(tid),
                                                 ZX_SAMPLER_ATTACH_DESCENDANTS);
      if (status == ZX_ERR_BAD_STATE && tid != pid) continue;  // it exited meanwhile
      if (status != ZX_OK) return status;
      attached.insert(tid);
      recording->SetThreadName(static_cast<uint32_t>(tid), ReadComm(pid, tid));
      more = true;
    }
  }
  return attached.empty() ? ZX_ERR_BAD_STATE : ZX_OK;
}

double Now() { return static_cast<double>(tools::NowNs()) * 1e-9; }

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (int status = ParseOptions(argc, argv, &options)) return status;
  std::string error;
  if (options.pid != 0 && ProcessGone(options.pid))
    return Fail("-p " + std::to_string(options.pid) + ": no such process");
  Outputs outputs;
  if (!OpenOutputs(options, &outputs, &error)) return Fail(error);

  // A command's wait takes the signals (tools::WaitLoop passes them on): blocked before the
  // sampler starts a thread, so that every thread has them blocked.
  tools::Command command;
  if (!options.command.empty()) tools::BlockWaitedSignals();
  zx_sampler_config_t config{};
  config.period = options.period_ns;
  config.buffer_size = options.buffer_mb << 20;
  config.iobuffer_discipline = ZX_IOB_DISCIPLINE_TYPE_NONE;
  zx_handle_t session = ZX_HANDLE_INVALID;
  zx_status_t status = zx_sampler_create(ZX_HANDLE_INVALID, 0, &config, &session);
  if (status != ZX_OK) return Fail("creating the sampler", status);
  status = zx_sampler_set_unwind(session, options.unwind, options.stack_bytes);
  if (status != ZX_OK) return Fail("choosing the unwinding", status);
  pmsample::Recording recording;
  zx_sampler_set_task_events(session, &pmsample::Recording::OnTaskEvent, &recording);
  zx_sampler_set_event(session, options.event_type, options.event_config);

  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);

  pmsample::RunFacts facts;
  facts.period_ns = options.period_ns;
  if (options.event_type != PERF_TYPE_SOFTWARE)
    facts.period_unit = options.event_config == PERF_COUNT_HW_INSTRUCTIONS
                            ? "instructions of a thread"
                            : "cycles of a thread";
  int exit_code = 0;
  if (!options.command.empty()) {
    for (char* arg : options.command)
      facts.command += (facts.command.empty() ? "" : " ") + std::string(arg);
    // Held before its exec, so that the sampler sees the exec and the mappings it makes.
    const std::vector<std::string> words(options.command.begin(), options.command.end());
    if (command.StartHeld(words) != 0) {
      return Fail(std::string("cannot start ") + options.command[0] + ": " +
                  std::strerror(command.exec_errno()));
    }
    const pid_t child = command.pid();
    g_child = child;
    // Until it execs, the child is a copy of this program.
    std::vector<fuchsia_common::Mapping> own;
    fuchsia_common::ReadExecutableMappings(getpid(), &own, &error);
    recording.AddInitialProcess(child, own);
    status = zx_sampler_attach_etc(session, static_cast<zx_handle_t>(child),
                                   ZX_SAMPLER_ATTACH_DESCENDANTS);
    if (status != ZX_OK) return Fail("attaching the command", status);  // ~Command kills it
    facts.start_ticks = static_cast<uint64_t>(zx_ticks_get());
    status = zx_sampler_start(session);
    if (status != ZX_OK) return Fail("starting", status);
    if (command.Release() != 0) command.ExplainExecFailure("pmsample", options.command[0]);
    tools::WaitLoop(&command, 0, 0, [] { return true; }, {});
    exit_code = command.exit_status();
  } else {
    facts.command = "-p " + std::to_string(options.pid);
    std::vector<fuchsia_common::Mapping> maps;
    facts.program = ProgramOf(options.pid);
    if (!fuchsia_common::ReadExecutableMappings(options.pid, &maps, &error)) {
      if (ProcessGone(options.pid))
        return Fail("-p " + std::to_string(options.pid) + ": no such process");
      return Fail("process " + std::to_string(options.pid) + ": " + error);
    }
    recording.AddInitialProcess(options.pid, maps);
    status = AttachProcess(session, options.pid, &recording);
    if (status != ZX_OK) {
      if (ProcessGone(options.pid))
        return Fail("-p " + std::to_string(options.pid) + ": no such process");
      return Fail("attaching the process", status);
    }
    facts.start_ticks = static_cast<uint64_t>(zx_ticks_get());
    status = zx_sampler_start(session);
    if (status != ZX_OK) return Fail("starting", status);
    std::fprintf(stderr, "pmsample: sampling process %d\n", options.pid);
    std::fflush(stderr);
    double deadline = options.duration > 0 ? Now() + options.duration : 0;
    int pidfd = static_cast<int>(syscall(SYS_pidfd_open, options.pid, 0));
    while (!g_interrupted && (deadline == 0 || Now() < deadline)) {
      if (pidfd >= 0) {
        pollfd p{pidfd, POLLIN, 0};
        if (poll(&p, 1, 50) > 0) break;  // the process exited
      } else if (kill(options.pid, 0) != 0 && errno == ESRCH) {
        break;
      } else {
        usleep(50000);
      }
    }
    if (pidfd >= 0) close(pidfd);
  }
  status = zx_sampler_stop(session);
  facts.end_ticks = static_cast<uint64_t>(zx_ticks_get());
  if (status != ZX_OK) return Fail("stopping", status);

  zx_sampler_info_t info;
  zx_sampler_get_info(session, &info);
  facts.written = info.samples_written;
  facts.dropped = info.samples_dropped;
  facts.lost = info.samples_lost;
  facts.full_regions = info.full_regions;
  recording.ApplyTaskEvents();
  if (!options.command.empty())
    facts.program = recording.ExecutedProgram(static_cast<uint32_t>(g_child));
  else if (std::string image = recording.ExecutedProgram(static_cast<uint32_t>(options.pid));
           !image.empty())
    facts.program = image;  // it exec'd while sampled

  std::vector<std::vector<uint64_t>> raw(info.region_count);
  for (uint32_t i = 0; i < info.region_count; ++i) {
    const void* data = nullptr;
    size_t size = 0;
    status = zx_sampler_map_region(session, i, &data, &size);
    if (status != ZX_OK) return Fail("mapping a region", status);
    size_t used = 0;
    bool ok = fuchsia_common::fxt::WalkSampleRegion(
        data, size,
        [&](const fuchsia_common::fxt::Sample& s) {
          recording.AddSample(s.ticks, static_cast<uint32_t>(s.pid), static_cast<uint32_t>(s.tid),
                              s.pcs, s.frame_count);
        },
        &used, &error);
    raw[i].assign(static_cast<const uint64_t*>(data),
                  static_cast<const uint64_t*>(data) + used / 8);
    munmap(const_cast<void*>(data), size);
    if (!ok) return Fail("region " + std::to_string(i) + ": " + error);
  }
  zx_handle_close(session);

  // A file that cannot be written now (a full disk) is said, and the rest still written; the
  // status stays the command's, as the command ran (pmcount does the same).
  bool written = true;
  auto say = [&](bool ok) {
    if (!ok) std::fprintf(stderr, "pmsample: %s\n", error.c_str());
    written = written && ok;
  };
  if (!options.trace.empty()) say(pmsample::WriteTrace(recording, raw, outputs.trace, &error));
  if (!options.pprof.empty()) say(pmsample::WritePprof(recording, facts, outputs.pprof, &error));
  if (!options.folded.empty()) say(pmsample::WriteFolded(recording, outputs.folded, &error));
  if (!options.flamegraph.empty())
    say(pmsample::WriteFlameGraph(recording, facts, outputs.flamegraph, &error));
  if (!options.raw.empty()) say(pmsample::WriteRawRegions(raw, outputs.raw, &error));
  if (!options.quiet) std::fputs(pmsample::Summary(recording, facts, options.top).c_str(), stdout);
  if (facts.full_regions)
    std::fprintf(
        stderr,
        "pmsample: a region filled and later samples were dropped; use a larger --buffer-mb\n");
  if (facts.lost && options.unwind == ZX_SAMPLER_UNWIND_DWARF)
    std::fprintf(stderr,
                 "pmsample: %llu samples lost: each --call-graph dwarf sample carries its stack "
                 "copy, and the kernel's ring filled faster than it was drained; lower -F or "
                 "the copy's size (dwarf,bytes)\n",
                 static_cast<unsigned long long>(facts.lost));
  if (!written && options.command.empty()) return kFailed;
  return exit_code;
}
