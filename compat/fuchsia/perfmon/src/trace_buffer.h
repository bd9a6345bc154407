/* SPDX-License-Identifier: MIT */
// One CPU's trace buffer: shared memory (a sealed memfd, Linux's VMO) holding perfmon's header
// and records, written only by the engine, handed to callers as read-only descriptors.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include <memory>

#include "lib/perfmon/records.h"

namespace perfmon {

class TraceBuffer {
 public:
  // ZX_ERR_NO_MEMORY (or ZX_ERR_NO_RESOURCES when out of descriptors) if it cannot be made.
  static zx_status_t Make(size_t bytes, std::unique_ptr<TraceBuffer> *out);
  ~TraceBuffer();
  TraceBuffer(const TraceBuffer &) = delete;
  TraceBuffer &operator=(const TraceBuffer &) = delete;

  // A fresh header, no records.
  void Reset();
  // Appends one whole group of records, or none: then the buffer is full from now on.
  bool Append(const void *records, size_t size) {
    if (full_) return false;
    if (size > size_ - end_) {
      MarkFull();
      return false;
    }
    memcpy(base_ + end_, records, size);
    end_ += size;
    return true;
  }
  // Records were lost (here or in the kernel): the reader must know.
  void MarkFull();
  bool full() const { return full_; }
  // Makes the records appended so far visible through capture_end.
  void Publish();

  // A new read-only descriptor of the buffer, or -errno.
  int OpenReadOnly() const;
  size_t size() const { return size_; }
  const uint8_t *data() const { return base_; }

 private:
  TraceBuffer(int fd, uint8_t *base, size_t size) : fd_(fd), base_(base), size_(size) {}
  int fd_;
  uint8_t *base_;
  size_t size_;
  size_t end_ = sizeof(perfmon_buffer_header_t);
  bool full_ = false;
};

}  // namespace perfmon
