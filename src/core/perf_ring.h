/* SPDX-License-Identifier: MIT */
// A perf sampling ring and its reader: the metadata page and the data pages the kernel writes
// records into, mapped from one event through the seam. The kernel publishes data_head after
// whole records; the reader consumes up to it and gives the space back by publishing
// data_tail (acquire on the head, release on the tail, as perf_event_mmap_page documents).
#pragma once

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <memory>

namespace pmapi {

// A record, whole and contiguous (header included) even when it wraps around the ring's end.
using PerfRecordFn = std::function<void(const perf_event_header &header, const uint8_t *record)>;

// The smallest ring Map settles for: 8 data pages (32 KiB).
constexpr size_t kMinRingPages = 8;

class PerfRing {
 public:
  PerfRing() = default;
  ~PerfRing() { Unmap(); }
  PerfRing(const PerfRing &) = delete;
  PerfRing &operator=(const PerfRing &) = delete;

  // Maps the ring of event `fd` with `max_data_pages` data pages (a power of two), halved down
  // to kMinRingPages while the locked-memory limit refuses it (EPERM, ENOMEM). Returns 0 or
  // -errno.
  int Map(int fd, size_t max_data_pages);
  void Unmap();
  bool mapped() const { return page_ != nullptr; }
  size_t data_size() const { return data_size_; }

  // Hands every record published since the last drain to `each`, in order, then gives their
  // space back to the kernel. A record that cannot be one (shorter than its header, longer than
  // the ring or than what was published) means the ring is corrupt: everything published is
  // skipped and counted in discarded_bytes(), never read past nor stalled on. Allocates nothing.
  void Drain(const PerfRecordFn &each);
  uint64_t discarded_bytes() const { return discarded_bytes_; }

  // In a child of fork, which has no copy of the mapping: forgets it without unmapping.
  void ForgetInChild();

 private:
  void CopyOut(uint64_t position, void *to, size_t size) const;

  perf_event_mmap_page *page_ = nullptr;
  size_t mapped_size_ = 0;
  const uint8_t *data_ = nullptr;
  size_t data_size_ = 0;
  uint64_t discarded_bytes_ = 0;
  std::unique_ptr<uint64_t[]> scratch_;  // a record that wraps, made whole (sizes are a u16)
};

}  // namespace pmapi
