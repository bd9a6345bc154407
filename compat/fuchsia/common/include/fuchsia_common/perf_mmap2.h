/* SPDX-License-Identifier: MIT */
// The one reader of a PERF_RECORD_MMAP2 for the Fuchsia layers (perfmon's mappings, the
// sampler's unwinder and task events). With sample_id_all the record ends with the sample id
// fields its event's sample_type asks for; the file name (NUL-padded) stops before them, so a
// name that fills its room is not read on into them. Header-only: libperfmon and libzx_sampler
// link no fuchsia_common.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#include <string>

namespace fuchsia_common {

// The bytes sample_id_all puts at the end of every record but a sample, for `sample_type`:
// {pid, tid}, time, id, stream id, {cpu, reserved}, identifier, 8 each when asked for.
constexpr size_t SampleIdBytes(uint64_t sample_type) {
  size_t bytes = 0;
  for (uint64_t field : {PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
                         PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER}) {
    if (sample_type & field) bytes += 8;
  }
  return bytes;
}

struct Mmap2Record {
  uint32_t pid = 0, tid = 0;
  uint64_t addr = 0, len = 0, pgoff = 0;
  uint32_t prot = 0, flags = 0;
  std::string name;
};

// Reads the PERF_RECORD_MMAP2 at `record` (its perf_event_header first, `header.size` bytes in
// all) whose sample id tail is `sample_id_bytes` long (SampleIdBytes; 0 without
// sample_id_all). False when the record is too short to hold its fixed fields and the tail.
inline bool ReadMmap2(const perf_event_header &header, const uint8_t *record,
                      size_t sample_id_bytes, Mmap2Record *out) {
  struct {
    uint32_t pid, tid;
    uint64_t addr, len, pgoff;
    uint32_t maj, min;
    uint64_t ino, ino_generation;  // or the build id, with PERF_RECORD_MISC_MMAP_BUILD_ID
    uint32_t prot, flags;
  } fixed;
  if (header.size < sizeof header + sizeof fixed + sample_id_bytes) return false;
  memcpy(&fixed, record + sizeof header, sizeof fixed);
  const char *name = reinterpret_cast<const char *>(record + sizeof header + sizeof fixed);
  const size_t room = header.size - sizeof header - sizeof fixed - sample_id_bytes;
  out->pid = fixed.pid;
  out->tid = fixed.tid;
  out->addr = fixed.addr;
  out->len = fixed.len;
  out->pgoff = fixed.pgoff;
  out->prot = fixed.prot;
  out->flags = fixed.flags;
  out->name.assign(name, strnlen(name, room));
  return true;
}

}  // namespace fuchsia_common
