// SPDX-License-Identifier: MIT
#include "trace_buffer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuchsia_common/shared_buffer.h"

namespace perfmon {
namespace {

uint16_t ThisArch() {
#if defined(__x86_64__)
  return PERFMON_ARCH_X64;
#elif defined(__aarch64__)
  return PERFMON_ARCH_ARM64;
#else
  return PERFMON_ARCH_UNKNOWN;
#endif
}

zx_status_t StatusForErrno(int err) {
  return err == EMFILE || err == ENFILE ? ZX_ERR_NO_RESOURCES : ZX_ERR_NO_MEMORY;
}

}  // namespace

zx_status_t TraceBuffer::Make(size_t bytes, std::unique_ptr<TraceBuffer> *out) {
  fuchsia_common::SharedBuffer buffer;
  fuchsia_common::SharedBufferStep failed;
  if (int err = fuchsia_common::MakeSharedBuffer("perfmon-buffer", bytes, &buffer, &failed)) {
    return StatusForErrno(err);
  }
  out->reset(new TraceBuffer(buffer.fd, static_cast<uint8_t *>(buffer.base), bytes));
  (*out)->Reset();
  return ZX_OK;
}

TraceBuffer::~TraceBuffer() {
  munmap(base_, size_);
  close(fd_);
}

void TraceBuffer::Reset() {
  // Records are appended contiguously, so end_ is all the last trace wrote: clear it, so that
  // nothing a reader sees after capture_end is ever stale.
  if (end_ > sizeof(perfmon_buffer_header_t)) {
    memset(base_ + sizeof(perfmon_buffer_header_t), 0, end_ - sizeof(perfmon_buffer_header_t));
  }
  perfmon_buffer_header_t header{};
  header.version = PERFMON_BUFFER_VERSION;
  header.arch = ThisArch();
  header.ticks_per_second = 1000000000;  // TIME records are CLOCK_MONOTONIC nanoseconds
  header.capture_end = sizeof header;
  memcpy(base_, &header, sizeof header);
  end_ = sizeof header;
  full_ = false;
}

void TraceBuffer::MarkFull() {
  full_ = true;
  perfmon_buffer_header_t *header = reinterpret_cast<perfmon_buffer_header_t *>(base_);
  header->flags |= PERFMON_BUFFER_FLAG_FULL;
}

void TraceBuffer::Publish() {
  reinterpret_cast<perfmon_buffer_header_t *>(base_)->capture_end = end_;
}

int TraceBuffer::OpenReadOnly() const {
  // Reopening through /proc gives a descriptor of the same memory with its own, read-only
  // access mode: a caller cannot map it writable.
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd_);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

}  // namespace perfmon
