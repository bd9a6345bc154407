/* SPDX-License-Identifier: MIT */
// pmsample's outputs from a Recording: the FXT trace, the pprof profile, the raw regions and
// the text summary of the hottest functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "folded_stacks.h"
#include "output_file.h"
#include "recording.h"

namespace pmsample {

struct RunFacts {
  int64_t period_ns = 0;
  std::string period_unit = "ns of a thread's CPU time";  // what period_ns counts (-e)
  uint64_t written = 0, dropped = 0, lost = 0;
  uint64_t full_regions = 0;
  uint64_t start_ticks = 0, end_ticks = 0;
  std::string command;
  std::string program;  // the sampled program's file: the profile's main (first) mapping
};

// The trace: magic, initialization, process and thread names, one instant event per sample
// (named after its innermost function, its stack an interned string argument) that Perfetto
// shows on the thread's track, and every raw sample record as the sampler wrote it.
// Each writer fills a file opened before sampling began (src/tools/common/output_file.h).
bool WriteTrace(Recording& recording, const std::vector<std::vector<uint64_t>>& raw_regions,
                tools::OutputFile& file, std::string* error);

// The profile's first mapping, which pprof takes for the main binary and titles the profile
// after, is facts.program's (when a sample has a PC in it), not whatever module came first.
bool WritePprof(Recording& recording, const RunFacts& facts, tools::OutputFile& file,
                std::string* error);

// Folded stacks (tools/common/folded_stacks.h), one line per distinct stack: the thread's
// name, then its functions from the outermost to the sampled one, and the samples.
tools::FoldedStacks FoldedStacksOf(Recording& recording);
bool WriteFolded(Recording& recording, tools::OutputFile& file, std::string* error);
// A flame graph of those stacks: an SVG picture, or an HTML page when the path ends in .html.
bool WriteFlameGraph(Recording& recording, const RunFacts& facts, tools::OutputFile& file,
                     std::string* error);

// "<prefix>.cpu<N>": each region's records and the zero word after them, one file per region.
std::string RawRegionPath(const std::string& prefix, size_t region);
bool WriteRawRegions(const std::vector<std::vector<uint64_t>>& raw_regions,
                     std::vector<tools::OutputFile>& files, std::string* error);

// The hottest functions by self samples, with their total (anywhere in the stack) share.
std::string Summary(Recording& recording, const RunFacts& facts, size_t top);

}  // namespace pmsample
