#include "sample_ring.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

namespace perfmon {

int SampleRing::Map(int fd, size_t data_pages) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t bytes = (1 + data_pages) * page;
  // Writable, so that data_tail tells the kernel what was read and it never overwrites it.
  void *base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return -errno;
  page_ = static_cast<perf_event_mmap_page *>(base);
  data_ = static_cast<const uint8_t *>(base) + page;
  data_size_ = data_pages * page;
  mask_ = data_size_ - 1;
  mapped_size_ = bytes;
  return 0;
}

void SampleRing::Unmap() {
  if (page_) munmap(page_, mapped_size_);
  page_ = nullptr;
}

void SampleRing::CopyOut(uint64_t from, void *to, size_t size) const {
  size_t offset = from & mask_;
  size_t first = size < data_size_ - offset ? size : data_size_ - offset;
  memcpy(to, data_ + offset, first);
  memcpy(static_cast<uint8_t *>(to) + first, data_, size - first);
}

}  // namespace perfmon
