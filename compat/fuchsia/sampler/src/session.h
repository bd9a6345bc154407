/* SPDX-License-Identifier: MIT */
// One sampling session as Fuchsia sees it: the per-CPU regions (shared memory the caller maps
// read-only) and the FXT sample records written into them, over the core's sampling session
// (one ring per CPU, the attached threads' events, the drainer, fork).
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "core/sampling_session.h"
#include "dwarf_unwinder.h"
#include "zircon/sampler-linux.h"
#include "zircon/syscalls-next.h"

namespace zx_sampler {

class Session {
 public:
  // Validated config in; *error explains a failure.
  static zx_status_t Create(const zx_sampler_config_t& config, std::unique_ptr<Session>* out,
                            std::string* error);
  // In a child of fork, for the parent's session (which the core let go of), it releases only
  // this process's copies of the regions.
  ~Session();

  int handle() const { return handle_; }
  zx_status_t Attach(pid_t tid, bool descendants, std::string* error);
  zx_status_t Start(std::string* error);
  zx_status_t Stop(std::string* error);
  void Info(zx_sampler_info_t* info);
  zx_status_t RegionFd(uint32_t index, int* fd, std::string* error);
  zx_status_t MapRegion(uint32_t index, const void** data, size_t* size, std::string* error);
  void SetTaskEvents(zx_sampler_task_event_fn fn, void* context);
  // zx_sampler_set_unwind: before the first attach only (every event of a ring must write
  // records of one layout).
  zx_status_t SetUnwind(uint32_t method, uint32_t stack_bytes, std::string* error);
  // The event whose period later attaches sample on (zx_sampler_set_event).
  void SetEvent(uint32_t type, uint64_t config) {
    event_type_ = type;
    event_config_ = config;
  }

 private:
  struct Region {
    int memfd = -1;
    uint64_t* words = nullptr;  // the library's writable mapping
    size_t size = 0;
    size_t used = 0;  // bytes of records
    bool full = false;
  };

  Session() = default;
  void Record(size_t ring, const perf_event_header& header, const uint8_t* record);
  void TaskEvent(const perf_event_header& header, const uint8_t* record);
  // The mappings, forks and execs the DWARF unwinder follows.
  void Follow(const perf_event_header& header, const uint8_t* record);
  // The DWARF-unwound PCs of a sample whose callchain ends at `after` (its registers and stack
  // copy follow); 0 when it cannot be unwound past its first frame.
  size_t DwarfPcs(pid_t pid, pid_t tid, const uint8_t* after, const uint8_t* end, uint64_t* pcs);

  std::unique_ptr<pmapi::SamplingSession> sampling_;
  int handle_ = -1;
  int64_t period_ = 0;
  uint32_t event_type_ = PERF_TYPE_SOFTWARE;  // the thread's CPU time, as on Fuchsia
  uint64_t event_config_ = PERF_COUNT_SW_TASK_CLOCK;
  std::vector<Region> regions_;      // one per possible CPU
  std::vector<size_t> ring_region_;  // the region of each ring of sampling_
  std::set<pid_t> attached_;
  int kernel_time_ = -1;      // unknown until the first attach; then 0 or 1
  uint32_t stack_bytes_ = 0;  // user stack copied per sample; 0: frame pointers only

  // The drainer's alone (or Stop's, with the drain lock): DWARF unwinding when stack_bytes_.
  std::unique_ptr<DwarfUnwinder> unwinder_;

  // Guarded by sampling_->drain_mutex(): regions' contents, counters, the task callback.
  uint64_t written_ = 0, dropped_ = 0, lost_ = 0;
  std::map<uint64_t, pid_t> event_owner_;  // each event's id: the thread it was opened for
  std::set<pid_t> own_events_;             // threads attached with events of their own
  zx_sampler_task_event_fn task_fn_ = nullptr;
  void* task_context_ = nullptr;
};

}  // namespace zx_sampler
