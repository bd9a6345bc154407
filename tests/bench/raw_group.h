// The raw kernel path the benchmarks compare against: a perf group opened
// and driven by hand, the way a careful user of perf_event_open would.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include <string>
#include <vector>

struct RawEvent {
  uint32_t type;
  uint64_t config;
};

// The four software events every self-monitoring benchmark counts.
const std::vector<RawEvent> &FourSoftwareEvents();
// Their names in the catalog and in PAPI.
const std::vector<std::string> &FourSoftwareEventNames();
const std::vector<std::string> &FourSoftwareEventPapiNames();

class RawGroup {
 public:
  RawGroup(const std::vector<RawEvent> &events, pid_t pid, int cpu);
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
