// One sampling session: the per-CPU regions (shared memory the caller maps read-only), the
// per-CPU perf rings, every attached thread's events, and the thread that turns ring records
// into FXT sample records in the regions.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "perf_ring.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace zx_sampler {

class Session {
 public:
  // Validated config in; *error explains a failure.
  static zx_status_t Create(const zx_sampler_config_t& config, std::unique_ptr<Session>* out,
                            std::string* error);
  ~Session();

  int handle() const { return wake_fd_; }
  zx_status_t Attach(pid_t tid, bool descendants, std::string* error);
  zx_status_t Start(std::string* error);
  zx_status_t Stop(std::string* error);
  void Info(zx_sampler_info_t* info);
  zx_status_t RegionFd(uint32_t index, int* fd, std::string* error);
  zx_status_t MapRegion(uint32_t index, const void** data, size_t* size, std::string* error);
  void SetTaskEvents(zx_sampler_task_event_fn fn, void* context);

  // In a child of fork, which holds none of its parent's sessions: closes the child's copies
  // of the descriptors and unmaps its copies of the regions, and nothing else. The parent's
  // events are not disabled (they are the parent's), the rings are not unmapped (the kernel
  // does not copy perf mappings into a child) and the drainer is not joined (it is not in the
  // child): the object is abandoned, never destroyed. Only system calls, as fork allows.
  void ForgetInChild();
  Session* next_forgotten = nullptr;  // the abandoned sessions of a child, kept reachable

 private:
  struct Region {
    int memfd = -1;
    uint64_t* words = nullptr;  // the library's writable mapping
    size_t size = 0;
    size_t used = 0;  // bytes of records
    bool full = false;
    std::unique_ptr<PerfRing> ring;  // none for a CPU that is offline
  };

  Session() = default;
  void DrainLoop();
  void DrainAll();  // caller holds drain_mutex_
  void Record(Region& region, const perf_event_header& header, const uint8_t* record);
  void TaskEvent(const perf_event_header& header, const uint8_t* record);
  zx_status_t OpenThreadEvent(pid_t tid, int cpu, bool descendants, int* fd, std::string* error);

  int64_t period_ = 0;
  int wake_fd_ = -1;
  std::vector<Region> regions_;
  std::vector<int> thread_events_;
  std::set<pid_t> attached_;
  bool running_ = false;
  int kernel_time_ = -1;  // unknown until the first attach; then 0 or 1

  std::mutex drain_mutex_;  // regions' contents, counters, rings, task callback
  uint64_t written_ = 0, dropped_ = 0, lost_ = 0;
  zx_sampler_task_event_fn task_fn_ = nullptr;
  void* task_context_ = nullptr;
  std::atomic<bool> quit_{false};
  std::thread drainer_;
};

}  // namespace zx_sampler
