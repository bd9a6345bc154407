// SPDX-License-Identifier: MIT
#include "sample_converter.h"

#include <string.h>

#include "lib/perfmon/records.h"

namespace perfmon {
namespace {

// The records of one sample, built in place before they are appended whole.
class Batch {
 public:
  void Header(uint8_t type, perfmon_event_id_t event) {
    perfmon_record_header_t header{type, 0, event};
    Put(&header, sizeof header);
  }
  void Put(const void *data, size_t size) {
    memcpy(bytes_ + size_, data, size);
    size_ += size;
  }
  void Put64(uint64_t value) { Put(&value, sizeof value); }
  const uint8_t *data() const { return bytes_; }
  size_t size() const { return size_; }

 private:
  // TIME + PC + a VALUE for each other event + the largest LAST_BRANCH.
  uint8_t bytes_[sizeof(perfmon_time_record_t) + sizeof(perfmon_pc_record_t) +
                 PERFMON_MAX_NUM_EVENTS * sizeof(perfmon_value_record_t) +
                 sizeof(perfmon_last_branch_record_t)];
  size_t size_ = 0;
};

// Reads the sample's fields in the kernel's order, refusing to run past its end.
class Fields {
 public:
  Fields(const uint8_t *at, const uint8_t *end) : at_(at), end_(end) {}
  bool Get64(uint64_t *value) {
    if (end_ - at_ < 8) return false;
    memcpy(value, at_, 8);
    at_ += 8;
    return true;
  }
  bool Skip(size_t bytes) {
    if (static_cast<size_t>(end_ - at_) < bytes) return false;
    at_ += bytes;
    return true;
  }
  const uint8_t *at() const { return at_; }

 private:
  const uint8_t *at_;
  const uint8_t *end_;
};

}  // namespace

bool ConvertSample(const perf_event_header *record, CpuEvents *events, TraceBuffer *buffer) {
  const uint8_t *start = reinterpret_cast<const uint8_t *>(record + 1);
  Fields fields(start, reinterpret_cast<const uint8_t *>(record) + record->size);
  uint64_t perf_id = 0, ip = 0, pid_tid = 0, time = 0;
  if (!fields.Get64(&perf_id)) return false;
  EventSlot *slot = events->Find(perf_id);
  if (!slot) return false;
  const uint64_t type = slot->sample_type;
  if (!fields.Get64(&ip) || !fields.Get64(&pid_tid) || !fields.Get64(&time)) return false;

  Batch batch;
  batch.Header(PERFMON_RECORD_TIME, 0);
  batch.Put64(time);
  if (slot->flags & PERFMON_FLAG_COLLECT_PC) {
    batch.Header(PERFMON_RECORD_PC, slot->event);
    batch.Put64(static_cast<uint32_t>(pid_tid));  // the pid: Linux's address space
    batch.Put64(ip);
  } else {
    batch.Header(PERFMON_RECORD_TICK, slot->event);
  }
  if (type & PERF_SAMPLE_READ) {
    // PERF_FORMAT_GROUP | PERF_FORMAT_ID: nr, then {value, id} from the leader on.
    uint64_t nr = 0;
    if (!fields.Get64(&nr) || nr > PERFMON_MAX_NUM_EVENTS) return false;
    for (uint64_t i = 0; i < nr; ++i) {
      uint64_t value = 0, id = 0;
      if (!fields.Get64(&value) || !fields.Get64(&id)) return false;
      if (id == perf_id) continue;  // the timebase itself: its TICK or PC says it
      EventSlot *follower = events->Find(id);
      if (!follower) continue;
      batch.Header(PERFMON_RECORD_VALUE, follower->event);
      batch.Put64(value);
    }
  }
  if (type & PERF_SAMPLE_BRANCH_STACK) {
    uint64_t nr = 0;
    if (!fields.Get64(&nr)) return false;
    const uint8_t *entries = fields.at();
    if (!fields.Skip(nr * sizeof(perf_branch_entry))) return false;
    uint32_t kept =
        nr > PERFMON_MAX_NUM_LAST_BRANCH ? PERFMON_MAX_NUM_LAST_BRANCH : static_cast<uint32_t>(nr);
    batch.Header(PERFMON_RECORD_LAST_BRANCH, slot->event);
    batch.Put(&kept, sizeof kept);
    batch.Put64(static_cast<uint32_t>(pid_tid));
    for (uint32_t i = 0; i < kept; ++i) {
      perf_branch_entry entry;
      memcpy(&entry, entries + i * sizeof entry, sizeof entry);
      batch.Put64(entry.from);
      batch.Put64(entry.to);
      batch.Put64((entry.cycles & 0xffff) | (entry.mispred ? PERFMON_LAST_BRANCH_MISPRED : 0));
    }
  }
  if (!buffer->Append(batch.data(), batch.size())) return false;
  ++slot->samples;
  return true;
}

}  // namespace perfmon
