// The sampler's benchmark, printed as the table docs/performance.md keeps:
//  1. a fixed-work workload's own CPU time (the sampling interrupts are charged to it; other
//     programs on the machine are not) alone, under `pmsample -F 10000` and under
//     `perf record -F 10000 -g` (medians of interleaved runs; slowdowns as ratios);
//  2. bytes per sample: pmsample's raw region records and .fxt trace against perf.data;
//  3. pmsample's reading and --pprof writing of a recording of a million samples, in process
//     (the regions are made here from real PCs of this program, then walked, grouped,
//     symbolized and written exactly as pmsample does).
// Usage: sampler_bench [--runs N] [--work MILLIONS] | --pprof-only SAMPLES
#include <sys/stat.h>
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

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  double work = 1000;  // millions of steps: about 0.5 s of CPU alone
  size_t pprof_samples = 1000000;
  bool pprof_only = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--work")) work = std::atof(argv[i + 1]);
    if (!std::strcmp(argv[i], "--pprof-only")) {
      pprof_only = true;
      pprof_samples = static_cast<size_t>(std::atol(argv[i + 1]));
    }
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
