// One CPU's perf ring buffer, mapped from the first sampling event on that CPU (the others
// send their samples to it with PERF_EVENT_IOC_SET_OUTPUT). Drain hands each kernel record to
// a callback, whole and contiguous, and gives the space back to the kernel.
#pragma once

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

namespace perfmon {

class SampleRing {
 public:
  SampleRing() = default;
  ~SampleRing() { Unmap(); }
  SampleRing(const SampleRing &) = delete;
  SampleRing &operator=(const SampleRing &) = delete;

  // Maps 1 + data_pages pages of `fd` (data_pages a power of two). Returns 0 or -errno.
  int Map(int fd, size_t data_pages);
  void Unmap();
  // After fork, in the child: the kernel did not copy the mapping, so there is nothing to unmap
  // (and the address may be someone else's by now).
  void Forget() { page_ = nullptr; }
  bool mapped() const { return page_ != nullptr; }

  // Calls on_record(const perf_event_header *) for every record the kernel has written.
  template <typename OnRecord>
  void Drain(OnRecord &&on_record) {
    uint64_t head = __atomic_load_n(&page_->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = page_->data_tail;
    while (tail < head) {
      const uint8_t *at = data_ + (tail & mask_);
      perf_event_header header;
      CopyOut(tail, &header, sizeof header);
      if (header.size < sizeof header || header.size > head - tail) break;
      if ((tail & mask_) + header.size <= data_size_) {
        on_record(reinterpret_cast<const perf_event_header *>(at));
      } else {  // wraps around the end of the ring: copy it whole first
        CopyOut(tail, scratch_, header.size);
        on_record(reinterpret_cast<const perf_event_header *>(scratch_));
      }
      tail += header.size;
    }
    __atomic_store_n(&page_->data_tail, tail, __ATOMIC_RELEASE);
  }

 private:
  void CopyOut(uint64_t from, void *to, size_t size) const;

  perf_event_mmap_page *page_ = nullptr;
  const uint8_t *data_ = nullptr;
  size_t data_size_ = 0;
  uint64_t mask_ = 0;
  size_t mapped_size_ = 0;
  alignas(8) uint8_t scratch_[65536];  // a record's size is a u16
};

}  // namespace perfmon
