/* SPDX-License-Identifier: MIT */
// What the sampler's tests share: burning CPU in known functions, reading every sample back
// from a session's regions, and naming the functions in a sample's stack.
#pragma once

#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuchsia_common/fxt.h"
#include "fuchsia_common/symbolizer.h"
#include "zircon/syscalls-next.h"

namespace sampler_test {

inline pid_t Tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

inline int64_t ThreadCpuNs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

struct SampleCopy {
  uint64_t ticks, pid, tid;
  std::vector<uint64_t> pcs;
};

struct RegionContents {
  std::vector<SampleCopy> samples;
  std::vector<std::string> errors;  // per region that did not parse, or lacked its zero word
  std::vector<std::vector<uint8_t>> bytes;  // each region's used bytes
};

// Maps every region read-only and walks it as FXT sample records.
inline RegionContents ReadRegions(zx_handle_t session) {
  RegionContents out;
  zx_sampler_info_t info{};
  if (zx_sampler_get_info(session, &info) != ZX_OK) {
    out.errors.push_back(std::string("get_info: ") + zx_sampler_last_error());
    return out;
  }
  for (uint32_t i = 0; i < info.region_count; ++i) {
    const void* data = nullptr;
    size_t size = 0;
    if (zx_sampler_map_region(session, i, &data, &size) != ZX_OK) {
      out.errors.push_back(std::string("map: ") + zx_sampler_last_error());
      continue;
    }
    size_t used = 0;
    std::string error;
    bool ok = fuchsia_common::fxt::WalkSampleRegion(
        data, size,
        [&](const fuchsia_common::fxt::Sample& s) {
          out.samples.push_back(SampleCopy{s.ticks, s.pid, s.tid,
                                           std::vector<uint64_t>(s.pcs, s.pcs + s.frame_count)});
        },
        &used, &error);
    if (!ok) out.errors.push_back("region " + std::to_string(i) + ": " + error);
    if (used + 8 > size) out.errors.push_back("region " + std::to_string(i) + ": no zero word");
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    out.bytes.emplace_back(bytes, bytes + used);
    munmap(const_cast<void*>(data), size);
  }
  return out;
}

// True if some frame of `sample` is in `function` (symbolized in this process).
inline bool StackHas(fuchsia_common::Symbolizer& symbols, const SampleCopy& sample,
                     const std::string& function) {
  for (size_t i = 0; i < sample.pcs.size(); ++i) {
    uint64_t pc = i == 0 ? sample.pcs[i] : sample.pcs[i] - 1;
    if (symbols.Resolve(pc).function == function) return true;
  }
  return false;
}

}  // namespace sampler_test
