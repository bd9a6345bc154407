// SPDX-License-Identifier: MIT
#include "core/perf_ring.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <new>

#include "base/kernel.h"

namespace pmapi {

namespace {
constexpr size_t kLargestRecord = 65536;  // perf_event_header::size is 16 bits
}

int PerfRing::Map(int fd, size_t max_data_pages) {
  Unmap();
  scratch_.reset(new (std::nothrow) uint64_t[kLargestRecord / 8]);
  if (!scratch_) return -ENOMEM;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  int err = -ENOMEM;
  for (size_t pages = max_data_pages; pages >= kMinRingPages; pages /= 2) {
    const size_t size = (1 + pages) * page;
    void *ring = nullptr;
    err = CurrentKernel().MapRing(fd, size, &ring);
    if (err == -EPERM || err == -ENOMEM) continue;  // over the locked-memory limit: smaller
    if (err < 0) break;
    page_ = static_cast<perf_event_mmap_page *>(ring);
    mapped_size_ = size;
    // Kernels since 4.1 say where the data is; older ones put it right after the first page.
    const size_t offset = page_->data_offset ? page_->data_offset : page;
    data_ = static_cast<const uint8_t *>(ring) + offset;
    data_size_ = page_->data_size ? page_->data_size : pages * page;
    return 0;
  }
  scratch_.reset();
  return err;
}

void PerfRing::Unmap() {
  if (page_) CurrentKernel().UnmapRing(page_, mapped_size_);
  ForgetInChild();
}

void PerfRing::ForgetInChild() {
  page_ = nullptr;
  data_ = nullptr;
  mapped_size_ = data_size_ = 0;
}

void PerfRing::CopyOut(uint64_t position, void *to, size_t size) const {
  const size_t offset = static_cast<size_t>(position % data_size_);
  const size_t first = size < data_size_ - offset ? size : data_size_ - offset;
  memcpy(to, data_ + offset, first);
  memcpy(static_cast<uint8_t *>(to) + first, data_, size - first);
}

void PerfRing::Drain(const PerfRecordFn &each) {
  if (!page_) return;
  const uint64_t head = __atomic_load_n(&page_->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = page_->data_tail;
  if (head - tail > data_size_) {  // a head the kernel cannot have written
    discarded_bytes_ += head - tail;
    tail = head;
  }
  while (tail < head) {
    perf_event_header header;
    if (head - tail < sizeof header) {
      discarded_bytes_ += head - tail;
      tail = head;
      break;
    }
    CopyOut(tail, &header, sizeof header);
    if (header.size < sizeof header || header.size > head - tail) {
      discarded_bytes_ += head - tail;
      tail = head;
      break;
    }
    const size_t offset = static_cast<size_t>(tail % data_size_);
    const uint8_t *record = data_ + offset;
    if (offset + header.size > data_size_) {
      CopyOut(tail, scratch_.get(), header.size);
      record = reinterpret_cast<const uint8_t *>(scratch_.get());
    }
    each(header, record);
    tail += header.size;
  }
  __atomic_store_n(&page_->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace pmapi
