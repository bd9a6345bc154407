// SPDX-License-Identifier: MIT
// perfmon_reader_*: the buffer format's rules on the reading side (records.h).
#include "lib/perfmon/reader.h"

#include <string.h>

namespace {

template <typename T>
T Load(const uint8_t *at) {
  T value;
  memcpy(&value, at, sizeof value);
  return value;
}

}  // namespace

extern "C" zx_status_t perfmon_reader_init(perfmon_reader_t *reader, const void *data,
                                           size_t size) {
  if (!reader || !data) return ZX_ERR_INVALID_ARGS;
  memset(reader, 0, sizeof *reader);
  reader->data = static_cast<const uint8_t *>(data);
  reader->size = size;
  reader->status = ZX_ERR_INVALID_ARGS;
  if (size < sizeof(perfmon_buffer_header_t)) return ZX_ERR_INVALID_ARGS;
  perfmon_buffer_header_t header = Load<perfmon_buffer_header_t>(reader->data);
  if (header.version != PERFMON_BUFFER_VERSION) return ZX_ERR_INVALID_ARGS;
  if (header.capture_end < sizeof header || header.capture_end > size) return ZX_ERR_INVALID_ARGS;
  reader->offset = sizeof header;
  reader->end = header.capture_end;
  reader->status = ZX_OK;
  return ZX_OK;
}

extern "C" const perfmon_buffer_header_t *perfmon_reader_header(const perfmon_reader_t *reader) {
  return reinterpret_cast<const perfmon_buffer_header_t *>(reader->data);
}

extern "C" zx_status_t perfmon_reader_next(perfmon_reader_t *reader, perfmon_record_t *record) {
  if (!reader || !record) return ZX_ERR_INVALID_ARGS;
  if (reader->status != ZX_OK) return reader->status;
  if (reader->offset == reader->end) return ZX_ERR_NOT_FOUND;
  size_t left = reader->end - reader->offset;
  const uint8_t *at = reader->data + reader->offset;
  if (left < sizeof(perfmon_record_header_t)) return reader->status = ZX_ERR_IO;
  perfmon_record_header_t header = Load<perfmon_record_header_t>(at);
  size_t size = 0;
  switch (header.type) {
    case PERFMON_RECORD_TIME:
    case PERFMON_RECORD_COUNT:
    case PERFMON_RECORD_VALUE:
      size = 12;
      break;
    case PERFMON_RECORD_TICK:
      size = 4;
      break;
    case PERFMON_RECORD_PC:
      size = 20;
      break;
    case PERFMON_RECORD_LAST_BRANCH: {
      if (left < 8) return reader->status = ZX_ERR_IO;
      uint32_t n = Load<uint32_t>(at + 4);
      if (n > PERFMON_MAX_NUM_LAST_BRANCH) return reader->status = ZX_ERR_IO;
      size = PERFMON_LAST_BRANCH_RECORD_SIZE(n);
      break;
    }
    default:
      return reader->status = ZX_ERR_IO;
  }
  if (size > left) return reader->status = ZX_ERR_IO;
  memset(record, 0, sizeof *record);
  record->offset = reader->offset;
  record->type = header.type;
  record->event = header.event;
  switch (header.type) {
    case PERFMON_RECORD_TIME:
      reader->time = Load<uint64_t>(at + 4);
      break;
    case PERFMON_RECORD_COUNT:
    case PERFMON_RECORD_VALUE:
      record->value = Load<uint64_t>(at + 4);
      break;
    case PERFMON_RECORD_PC:
      record->aspace = Load<uint64_t>(at + 4);
      record->value = Load<uint64_t>(at + 12);
      break;
    case PERFMON_RECORD_LAST_BRANCH:
      record->aspace = Load<uint64_t>(at + 8);
      record->last_branch = reinterpret_cast<const perfmon_last_branch_record_t *>(at);
      break;
    default:
      break;
  }
  record->time = reader->time;
  reader->offset += size;
  return ZX_OK;
}
