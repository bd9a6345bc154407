/* SPDX-License-Identifier: MIT */
// The raw kernel path the benchmarks compare against: a perf group opened
// and driven by hand, the way a careful user of perf_event_open would.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

struct RawEvent {
  uint32_t type;
  uint64_t config;
};

// Eight distinct software events, and their names in the catalog and PAPI.
const std::vector<RawEvent> &EightSoftwareEvents();
const std::vector<std::string> &EightSoftwareEventNames();
const std::vector<std::string> &EightSoftwareEventPapiNames();
// The first n (1..8) of them.
std::vector<RawEvent> SoftwareEvents(int n);
std::vector<std::string> SoftwareEventPapiNames(int n);
// The first four: the events every self-monitoring benchmark counts.
const std::vector<RawEvent> &FourSoftwareEvents();
const std::vector<std::string> &FourSoftwareEventPapiNames();

class RawGroup {
 public:
  // `inherit`: also count the threads and processes `pid` starts afterwards.
  RawGroup(const std::vector<RawEvent> &events, pid_t pid, int cpu, bool inherit = false);
  ~RawGroup();
  bool ok() const { return !fds_.empty() && fds_[0] >= 0; }
  void Enable() const;
  void Disable() const;
  void Reset() const;
  // One PERF_FORMAT_GROUP read with both times, as libpmapi does.
  void Read(uint64_t *buffer, size_t words) const;
  size_t read_words() const { return 3 + fds_.size(); }

 private:
  std::vector<int> fds_;
};

// The CPUs online now.
int OnlineCpus();

// `events` as one group per online CPU, counting everything on it (system-wide: needs root);
// none at all when any CPU's open failed.
std::vector<std::unique_ptr<RawGroup>> OpenOnEveryCpu(const std::vector<RawEvent> &events);
