// One trace, from Start to Stop: the perf events of a staged config on every CPU, their sample
// rings, and the thread that turns samples into records while the trace runs. Its destructor
// closes every descriptor and mapping it made.
#pragma once

#include <poll.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lib/perfmon/types.h"
#include "sample_converter.h"
#include "sample_ring.h"
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
  // In a fork child, for a session of the parent's: closes this process's copies of the event
  // descriptors without disabling the events (the parent's), forgets the rings (never mapped
  // in the child) and the drain thread (not running in the child). Destroying it does nothing
  // more then.
  void AbandonInChild();

 private:
  struct Cpu {
    int cpu = -1;
    TraceBuffer *buffer = nullptr;
    CpuEvents events;
    int fds[PERFMON_MAX_NUM_EVENTS];
    uint32_t rates[PERFMON_MAX_NUM_EVENTS];
    bool reads_group[PERFMON_MAX_NUM_EVENTS];
    SampleRing ring;
    int ring_fd = -1;
    std::vector<perfmon_mapping_t> mappings;  // filled by the drain thread
  };

  Session() = default;
  zx_status_t OpenCpu(const perfmon_config_t &config, const perfmon_target_t &target, Cpu *cpu,
                      std::string *why);
  void DrainAll();
  void DrainLoop();
  void WriteFinalRecords(Cpu *cpu);

  std::vector<std::unique_ptr<Cpu>> cpus_;
  bool wait_for_exec_ = false;
  bool sampling_ = false;
  int wake_fd_ = -1;              // eventfd: tells the drain thread to finish
  std::vector<pollfd> poll_fds_;  // the drain thread's: the wake eventfd, then each ring
  std::thread drainer_;
  bool started_ = false;
  bool stopped_ = false;
};

}  // namespace perfmon
