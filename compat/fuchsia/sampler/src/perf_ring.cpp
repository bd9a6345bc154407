// Reading a perf ring: data_head is read with acquire order, records are consumed, and
// data_tail is published with release order so the kernel may reuse the space.
#include "perf_ring.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>

namespace zx_sampler {

perf_event_attr SessionAttributes() {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.disabled = 1;
  attr.exclude_hv = 1;
  // Timestamps on CLOCK_MONOTONIC: the records' ticks are its nanoseconds.
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
  attr.sample_id_all = 1;
  return attr;
}

int PerfEventOpen(const perf_event_attr& attr, pid_t pid, int cpu) {
  long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
  return fd < 0 ? -errno : static_cast<int>(fd);
}

PerfRing::~PerfRing() {
  if (map_) munmap(map_, map_size_);
  if (fd_ >= 0) close(fd_);
}

void PerfRing::ForgetInChild() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  map_ = nullptr;
}

int PerfRing::Open(int cpu, size_t max_data_pages) {
  perf_event_attr attr = SessionAttributes();
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.exclude_kernel = 1;  // the anchor counts nothing and needs no privilege
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // Wake the reader when a quarter of the ring is used (the kernel caps it at a smaller ring).
  attr.watermark = 1;
  attr.wakeup_watermark = static_cast<uint32_t>(max_data_pages * page / 4);
  int fd = PerfEventOpen(attr, 0, cpu);
  if (fd < 0) return fd;
  int error = -ENOMEM;
  for (size_t pages = max_data_pages; pages >= 8; pages /= 2) {
    size_t size = (pages + 1) * page;
    void* map = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
      error = -errno;
      if (errno != EPERM && errno != ENOMEM) break;
      continue;
    }
    map_ = map;
    map_size_ = size;
    data_size_ = pages * page;
    break;
  }
  if (!map_) {
    close(fd);
    return error;
  }
  fd_ = fd;
  cpu_ = cpu;
  return 0;
}

void PerfRing::Drain(const std::function<void(const perf_event_header&, const uint8_t*)>& each) {
  if (!map_) return;
  auto* page = static_cast<perf_event_mmap_page*>(map_);
  const uint8_t* data = static_cast<const uint8_t*>(map_) + page->data_offset;
  const uint64_t size = page->data_size ? page->data_size : data_size_;
  uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = page->data_tail;
  while (tail + sizeof(perf_event_header) <= head) {
    perf_event_header header;
    size_t at = static_cast<size_t>(tail % size);
    // A header is 8 bytes and records are 8-aligned, so a header never wraps.
    std::memcpy(&header, data + at, sizeof header);
    if (header.size < sizeof header || tail + header.size > head) break;
    const uint8_t* record = data + at;
    if (at + header.size > size) {
      scratch_.resize(header.size);
      size_t first = size - at;
      std::memcpy(scratch_.data(), data + at, first);
      std::memcpy(scratch_.data() + first, data, header.size - first);
      record = scratch_.data();
    }
    each(header, record);
    tail += header.size;
  }
  __atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
}

}  // namespace zx_sampler
