// SPDX-License-Identifier: MIT
// The sampler's benchmark, printed as the table docs/performance.md keeps:
//  1. a fixed-work workload's own CPU time (the sampling interrupts are charged to it; other
//     programs on the machine are not) alone, under `pmsample -F 10000` and under
//     `perf record -F 10000 -g` (medians of interleaved runs; slowdowns as ratios);
//  2. bytes per sample: pmsample's raw region records and .fxt trace against perf.data;
//  3. pmsample's reading and --pprof writing of a recording of a million samples, in process
//     (the regions are made here from real PCs of this program, then walked, grouped,
//     symbolized and written exactly as pmsample does);
//  4. with --unwind: the drainer's CPU per sample unwinding by frame pointers and by DWARF
//     (zx_sampler_set_unwind), this process sampling the workload at 10 kHz and doing nothing
//     else meanwhile, and the workload's slowdown under each;
//  5. with --processes N: a command running the workload N times (short processes of one
//     program), pmsample --folded against perf record -g + perf script: CPU and peak memory.
// Usage: sampler_bench [--runs N] [--work MILLIONS] [--unwind | --processes N]
//        | --pprof-only SAMPLES
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuchsia_common/fxt.h"
#include "fuchsia_common/symbolizer.h"
#include "outputs.h"
#include "recording.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace {

std::string Shell(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  pclose(pipe);
  return out;
}

double Number(const std::string& text, const std::string& before) {
  size_t at = text.find(before);
  return at == std::string::npos ? -1 : std::atof(text.c_str() + at + before.size());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

off_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? st.st_size : 0;
}

// Functions whose addresses make the synthetic stacks: real code, symbolized for real.
#define LEAF(n) \
  extern "C" __attribute__((noinline)) int BenchFrame##n(int x) { return x * (n + 3) + 1; }
// A macro that defines a function ends in no statement, and clang-format would join what
// follows to it: the definitions and the table are laid out by hand.
// clang-format off
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5) LEAF(6) LEAF(7)
LEAF(8) LEAF(9) LEAF(10) LEAF(11) LEAF(12) LEAF(13) LEAF(14) LEAF(15)

int (*const kFrames[])(int) = {
    BenchFrame0,  BenchFrame1,  BenchFrame2,  BenchFrame3,  BenchFrame4,  BenchFrame5,
    BenchFrame6,  BenchFrame7,  BenchFrame8,  BenchFrame9,  BenchFrame10, BenchFrame11,
    BenchFrame12, BenchFrame13, BenchFrame14, BenchFrame15};
// clang-format on

// Seconds to walk `samples` records, group them and write the pprof profile.
double PprofSeconds(size_t samples, size_t* distinct_stacks) {
  // Regions as the sampler fills them: 12-frame stacks over 16 functions, 2,000 shapes.
  std::vector<uint64_t> region;
  region.reserve(samples * (6 + 12) + 1);
  uint64_t pcs[12];
  uint32_t seed = 12345;
  for (size_t i = 0; i < samples; ++i) {
    uint32_t shape = static_cast<uint32_t>(i * 2654435761u % 2000);
    seed = shape;
    for (uint64_t& pc : pcs) {
      seed = seed * 1103515245u + 12345u;
      pc =
          reinterpret_cast<uint64_t>(reinterpret_cast<const void*>(kFrames[(seed >> 16) % 16])) + 4;
    }
    size_t at = region.size();
    region.resize(at + fuchsia_common::fxt::SampleRecordWords(12));
    fuchsia_common::fxt::EncodeSample(&region[at], 1000 + i, static_cast<uint64_t>(getpid()),
                                      static_cast<uint64_t>(getpid()) + (shape % 4), pcs, 12);
  }
  region.push_back(0);
  std::string path = "/tmp/sampler_bench_" + std::to_string(getpid()) + ".pb.gz", error;
  auto start = std::chrono::steady_clock::now();
  pmsample::Recording recording;
  std::vector<fuchsia_common::Mapping> maps;
  fuchsia_common::ReadExecutableMappings(getpid(), &maps, &error);
  recording.AddInitialProcess(getpid(), maps);
  recording.ApplyTaskEvents();
  size_t used = 0;
  fuchsia_common::fxt::WalkSampleRegion(
      region.data(), region.size() * 8,
      [&](const fuchsia_common::fxt::Sample& s) {
        recording.AddSample(s.ticks, static_cast<uint32_t>(s.pid), static_cast<uint32_t>(s.tid),
                            s.pcs, s.frame_count);
      },
      &used, &error);
  pmsample::RunFacts facts;
  facts.period_ns = 100000;
  // Made with O_EXCL and renamed into place: a link planted at the name in /tmp is replaced.
  tools::OutputFile file;
  error = file.Open(path);
  bool ok = error.empty() && pmsample::WritePprof(recording, facts, file, &error);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!ok) std::fprintf(stderr, "sampler_bench: %s\n", error.c_str());
  *distinct_stacks = recording.stacks().size();
  unlink(path.c_str());
  return ok ? seconds : -1;
}

double CpuSeconds(int who) {
  rusage usage;
  getrusage(who, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

struct UnwindRun {
  double drainer_s = -1;  // this process's CPU while sampling: the drainer, and stop's drain
  double workload_s = 0;  // the workload's own report
  uint64_t samples = 0, lost = 0;
};

// Samples `workload` (run through sh, its output read back) with `method` at 10 kHz.
UnwindRun SampleWithUnwinding(uint32_t method, const std::string& workload) {
  UnwindRun run;
  zx_sampler_config_t config{};
  config.period = 100000;
  config.buffer_size = 64 << 20;
  zx_handle_t session;
  if (zx_sampler_create(0, 0, &config, &session) != ZX_OK ||
      zx_sampler_set_unwind(session, method, 0) != ZX_OK) {
    std::fprintf(stderr, "sampler_bench: %s\n", zx_sampler_last_error());
    return run;
  }
  int gate[2], out[2];
  if (pipe(gate) != 0 || pipe(out) != 0) return run;
  pid_t child = fork();
  if (child == 0) {
    char byte;
    close(gate[1]);
    dup2(out[1], 1);
    if (read(gate[0], &byte, 1) != 1) _exit(127);
    execl("/bin/sh", "sh", "-c", ("exec " + workload).c_str(), (char*)nullptr);
    _exit(127);
  }
  close(gate[0]);
  close(out[1]);
  zx_status_t status = zx_sampler_attach_etc(session, static_cast<zx_handle_t>(child),
                                             ZX_SAMPLER_ATTACH_DESCENDANTS);
  double before = CpuSeconds(RUSAGE_SELF);
  if (status == ZX_OK) status = zx_sampler_start(session);
  (void)!write(gate[1], "g", 1);
  close(gate[1]);
  std::string text;
  char buffer[256];
  ssize_t n;
  while ((n = read(out[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  close(out[0]);
  waitpid(child, nullptr, 0);
  if (status == ZX_OK) status = zx_sampler_stop(session);
  double after = CpuSeconds(RUSAGE_SELF);
  zx_sampler_info_t info{};
  zx_sampler_get_info(session, &info);
  zx_handle_close(session);
  if (status != ZX_OK) {
    std::fprintf(stderr, "sampler_bench: %s\n", zx_sampler_last_error());
    return run;
  }
  run.drainer_s = after - before;
  run.workload_s = Number(text, "cpu_ns ") * 1e-9;
  run.samples = info.samples_written;
  run.lost = info.samples_lost;
  return run;
}

void CompareUnwinding(const std::string& workload, int runs) {
  std::vector<double> cost[2], slow[2];
  uint64_t samples[2] = {}, lost[2] = {};
  for (int run = 0; run < runs; ++run) {
    for (uint32_t method : {ZX_SAMPLER_UNWIND_FRAME_POINTERS, ZX_SAMPLER_UNWIND_DWARF}) {
      UnwindRun r = SampleWithUnwinding(method, workload);
      if (r.drainer_s < 0 || r.samples == 0) return;
      cost[method].push_back(r.drainer_s / static_cast<double>(r.samples) * 1e9);
      slow[method].push_back(r.workload_s);
      samples[method] = r.samples;
      lost[method] += r.lost;
    }
  }
  const char* names[2] = {"frame pointers", "dwarf (8 KiB stack copy)"};
  for (uint32_t method : {0u, 1u})
    std::printf(
        "unwinding by %s: drainer %.0f ns of CPU per sample, workload %.3f s of CPU, %llu "
        "samples (medians of %d), %llu lost in all runs\n",
        names[method], Median(cost[method]), Median(slow[method]),
        static_cast<unsigned long long>(samples[method]), runs,
        static_cast<unsigned long long>(lost[method]));
}

}  // namespace

// A shell command's CPU time (user and system, its descendants included) and the largest peak
// resident set of it and its descendants, from wait4.
struct Cost {
  double cpu_s = 0;
  long max_rss_kb = 0;
};

Cost Measure(const std::string& command) {
  Cost cost;
  const pid_t child = fork();
  if (child == 0) {
    execl("/bin/sh", "sh", "-c", (command + " >/dev/null 2>&1").c_str(), (char*)nullptr);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (child < 0 || wait4(child, &status, 0, &usage) != child) return cost;
  cost.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  cost.max_rss_kb = usage.ru_maxrss;
  return cost;
}

// 5. A command of many short processes of one program (`processes` runs of the workload, each
// ~10 ms of work): pmsample --folded against perf record -g + perf script, each one's CPU
// beyond the command's own and its peak memory (medians of `runs`).
void CompareProcesses(int processes, int runs) {
  const std::string dir = "/tmp/sampler_bench_" + std::to_string(getpid());
  Shell("mkdir -p " + dir);
  const std::string command = "sh -c 'for i in $(seq " + std::to_string(processes) + "); do " +
                              BENCH_WORKLOAD_PATH + " work 20; done'";
  const bool have_perf = Shell("perf --version").find("perf version") != std::string::npos;
  std::vector<double> alone, pm_cpu, pm_rss, perf_cpu, perf_rss;
  for (int run = 0; run < runs; ++run) {
    alone.push_back(Measure(command).cpu_s);
    Cost pm = Measure(std::string(PMSAMPLE_PATH) + " -q --folded " + dir + "/f.txt -- " + command);
    pm_cpu.push_back(pm.cpu_s);
    pm_rss.push_back(static_cast<double>(pm.max_rss_kb));
    if (!have_perf) continue;
    Cost record = Measure("perf record -g -o " + dir + "/perf.data -- " + command);
    Cost script = Measure("perf script -i " + dir + "/perf.data");
    perf_cpu.push_back(record.cpu_s + script.cpu_s);
    perf_rss.push_back(static_cast<double>(std::max(record.max_rss_kb, script.max_rss_kb)));
  }
  Shell("rm -rf " + dir);
  const double base = Median(alone);
  std::printf("%d processes: the command alone %.2f s of CPU (median of %d)\n", processes, base,
              runs);
  std::printf("pmsample --folded: %.2f s of CPU beyond the command's, peak %.0f MiB\n",
              Median(pm_cpu) - base, Median(pm_rss) / 1024);
  if (have_perf)
    std::printf("perf record -g + perf script: %.2f s of CPU beyond the command's, peak %.0f MiB\n",
                Median(perf_cpu) - base, Median(perf_rss) / 1024);
  else
    std::printf("perf not found: no comparison\n");
}

int main(int argc, char** argv) {
  int runs = 5;
  double work = 1000;  // millions of steps: about 0.5 s of CPU alone
  size_t pprof_samples = 1000000;
  bool pprof_only = false, unwind = false;
  int processes = 0;
  for (int i = 1; i < argc; ++i) {
    const bool value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--unwind")) unwind = true;
    if (!std::strcmp(argv[i], "--runs") && value) runs = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--processes") && value) processes = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--work") && value) work = std::atof(argv[++i]);
    if (!std::strcmp(argv[i], "--pprof-only") && value) {
      pprof_only = true;
      pprof_samples = static_cast<size_t>(std::atol(argv[++i]));
    }
  }
  if (processes > 0) {
    CompareProcesses(processes, runs);
    return 0;
  }
  if (unwind) {
    CompareUnwinding(std::string(BENCH_WORKLOAD_PATH) + " work " + std::to_string(work), runs);
    return 0;
  }
  size_t stacks = 0;
  double pprof = PprofSeconds(pprof_samples, &stacks);
  std::printf("pmsample --pprof on %zu samples (%zu distinct stacks): %.2f s\n", pprof_samples,
              stacks, pprof);
  if (pprof < 0) return 1;
  if (pprof_only) return 0;

  const std::string dir = "/tmp/sampler_bench_" + std::to_string(getpid());
  Shell("mkdir -p " + dir);
  const std::string workload = std::string(BENCH_WORKLOAD_PATH) + " work " + std::to_string(work);
  bool have_perf = Shell("perf --version").find("perf version") != std::string::npos;
  std::vector<double> alone, sampled, perfed;
  double pm_samples = 0, pm_raw = 0, pm_fxt = 0, perf_samples = 0, perf_bytes = 0;
  for (int run = 0; run < runs; ++run) {
    alone.push_back(Number(Shell(workload), "cpu_ns "));
    std::string out = Shell(std::string(PMSAMPLE_PATH) + " -F 10000 --top 1 -o " + dir +
                            "/t.fxt --raw " + dir + "/raw -- " + workload);
    sampled.push_back(Number(out, "cpu_ns "));
    pm_samples = Number(out, "pmsample: ");
    pm_raw = 0;
    for (int cpu = 0; cpu < 1024; ++cpu) {
      off_t size = FileSize(dir + "/raw.cpu" + std::to_string(cpu));
      if (size == 0) break;
      pm_raw += static_cast<double>(size - 8);  // less each region's zero word
    }
    pm_fxt = static_cast<double>(FileSize(dir + "/t.fxt"));
    if (have_perf) {
      out = Shell("perf record -F 10000 -g -o " + dir + "/perf.data -- " + workload);
      perfed.push_back(Number(out, "cpu_ns "));
      size_t at = out.rfind(" samples)");
      size_t open = out.rfind('(', at);
      if (at != std::string::npos && open != std::string::npos)
        perf_samples = std::atof(out.c_str() + open + 1);
      perf_bytes = static_cast<double>(FileSize(dir + "/perf.data"));
    }
  }
  Shell("rm -rf " + dir);
  double base = Median(alone);
  std::printf("workload alone: %.3f s of CPU (median of %d)\n", base * 1e-9, runs);
  std::printf(
      "under pmsample -F 10000: %.3f s, slowdown %.3f; %.0f samples, %.1f bytes/sample "
      "in the regions, %.1f in the .fxt\n",
      Median(sampled) * 1e-9, Median(sampled) / base, pm_samples,
      pm_samples > 0 ? pm_raw / pm_samples : 0, pm_samples > 0 ? pm_fxt / pm_samples : 0);
  if (have_perf)
    std::printf(
        "under perf record -F 10000 -g: %.3f s, slowdown %.3f; %.0f samples, %.1f "
        "bytes/sample in perf.data\n",
        Median(perfed) * 1e-9, Median(perfed) / base, perf_samples,
        perf_samples > 0 ? perf_bytes / perf_samples : 0);
  else
    std::printf("perf not found: no comparison\n");
  return 0;
}
