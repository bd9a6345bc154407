/* SPDX-License-Identifier: MIT */
// One trace, from Start to Stop: the perf events of a staged config on every CPU, as the core's
// sampling session opens, redirects and drains them (one ring per CPU), turned into perfmon
// records while the trace runs. Its destructor closes every descriptor and mapping it made.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/sampling_session.h"
#include "lib/perfmon/types.h"
#include "sample_converter.h"
#include "trace_buffer.h"

namespace perfmon {

class Session {
 public:
  // Opens (disabled) and maps everything for `config` on `cpus` (buffer i for cpus[i]).
  // Returns ZX_OK, or a status and *why; nothing stays open on failure.
  static zx_status_t Open(const perfmon_config_t &config, const perfmon_target_t &target,
                          const std::vector<int> &cpus, const std::vector<TraceBuffer *> &buffers,
                          std::unique_ptr<Session> *out, std::string *why);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  // Enables the events (unless they wait for exec) and starts draining.
  zx_status_t Start(std::string *why);
  // Disables, drains the last samples, writes each CPU's final TIME and COUNT records.
  void Stop();
  // The executable mappings seen (when an event collects PCs); call after Stop.
  std::vector<perfmon_mapping_t> TakeMappings();
  // In a fork child, for a session of the parent's: the core has closed this process's copies
  // of the descriptors and forgotten the rings and the drainer; destroying it does nothing more.
  void AbandonInChild() { stopped_ = true; }

 private:
  struct Cpu {
    int cpu = -1;
    TraceBuffer *buffer = nullptr;
    CpuEvents events;
    int fds[PERFMON_MAX_NUM_EVENTS];
    uint32_t rates[PERFMON_MAX_NUM_EVENTS];
    bool reads_group[PERFMON_MAX_NUM_EVENTS];
    std::vector<perfmon_mapping_t> mappings;  // filled by the drain thread
  };

  Session() = default;
  zx_status_t OpenCpu(const perfmon_config_t &config, const perfmon_target_t &target, size_t ring,
                      std::string *why);
  void Record(size_t ring, const perf_event_header &header, const uint8_t *record);
  void WriteFinalRecords(Cpu *cpu);

  std::unique_ptr<pmapi::SamplingSession> sampling_;  // ring i is cpus_[i]'s
  std::vector<std::unique_ptr<Cpu>> cpus_;
  bool wait_for_exec_ = false;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace perfmon
