// Decides event status by asking the running kernel: a perf_event_open on the calling thread
// (pid 0, cpu -1, user mode only, disabled), closed at once. Answers are cached, and one
// answer stands for a whole class where the kernel decides per class (docs/catalog.md):
//   - generic hardware and hardware-cache events: one probe (cycles) decides whether there is
//     a hardware PMU at all; only if there is are the events probed one by one;
//   - tracepoints: one probe for all (see TracepointClass);
//   - everything else: per encoding, and the sources call it once per PMU.
#pragma once

#include <linux/perf_event.h>

#include <map>
#include <string>
#include <tuple>

#include "catalog/catalog.h"

namespace pmapi {

struct ProbeResult {
  int err = 0;                    // 0: accepted; else the errno the kernel gave
  bool needs_both_modes = false;  // accepted only when counting user and kernel mode together
  bool no_hardware_pmu = false;   // refused because the kernel has no hardware PMU
};

class StatusProbe {
 public:
  ProbeResult Accepts(const perf_event_attr &attr);
  ProbeResult HardwareClass();
  ProbeResult TracepointClass();
  // Asks about every kernel software event and the hardware class up front, so that the
  // catalog can do it while libpfm4 initializes on another thread.
  void ProbeKernelGenericEvents();

 private:
  using Key = std::tuple<uint32_t, uint64_t, uint64_t, uint64_t>;
  std::map<Key, ProbeResult> cache_;
  bool hardware_probed_ = false;
  ProbeResult hardware_;
  bool tracepoint_probed_ = false;
  ProbeResult tracepoint_;
};

// The status a probe result gives an event whose mapping is exact or approximate.
EventStatus StatusFromProbe(const ProbeResult &result, bool approximate);

// "" for a plain acceptance, otherwise the sentence to append to the description, e.g.
// "(not countable here: the kernel has no hardware PMU for it)".
std::string ProbeNote(const ProbeResult &result);

// Appends `note` to `description` with a space, if there is a note.
void AppendNote(std::string *description, const std::string &note);

}  // namespace pmapi
