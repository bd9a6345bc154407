// One CPU's perf ring buffer: an "anchor" event of the calling thread that owns the mmap'd
// ring, into which every sampled thread's event on that CPU is redirected
// (PERF_EVENT_IOC_SET_OUTPUT), and the reader that drains it.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace zx_sampler {

// The attributes every event of a session shares (a ring takes only events on one clock).
perf_event_attr SessionAttributes();

class PerfRing {
 public:
  PerfRing() = default;
  ~PerfRing();
  PerfRing(const PerfRing&) = delete;
  PerfRing& operator=(const PerfRing&) = delete;

  // Opens the anchor on `cpu` and maps a ring of up to `max_data_pages` pages (a power of two;
  // halved while the locked-memory limit refuses it). Returns 0 or -errno.
  int Open(int cpu, size_t max_data_pages);
  int fd() const { return fd_; }
  int cpu() const { return cpu_; }
  // In a child of fork: closes the descriptor's copy; the ring was never mapped here (perf
  // mappings are not copied into a child), so it is not unmapped, and never drained.
  void ForgetInChild();

  // Calls `each` with every complete record written since the last drain, in order.
  void Drain(const std::function<void(const perf_event_header&, const uint8_t*)>& each);

 private:
  int fd_ = -1;
  int cpu_ = -1;
  void* map_ = nullptr;
  size_t map_size_ = 0;
  size_t data_size_ = 0;
  std::vector<uint8_t> scratch_;  // a record that wraps around the ring's end, made whole
};

// perf_event_open(2), close-on-exec; returns the descriptor or -errno.
int PerfEventOpen(const perf_event_attr& attr, pid_t pid, int cpu);

}  // namespace zx_sampler
