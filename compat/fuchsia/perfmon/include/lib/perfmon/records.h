/* SPDX-License-Identifier: MIT */
/* The trace buffer format, one buffer per CPU: a 24-byte header, then records packed at
 * 4-byte alignment from offset 24 to capture_end. Field for field Fuchsia's, with one
 * difference of units: TIME records hold CLOCK_MONOTONIC nanoseconds (ticks_per_second is
 * 1e9), and a PC record's aspace is the Linux pid the sample came from. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_RECORDS_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_RECORDS_H_

#include <stdint.h>

#include "lib/perfmon/events.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERFMON_BUFFER_VERSION 0
#define PERFMON_ARCH_UNKNOWN 0
#define PERFMON_ARCH_X64 1
#define PERFMON_ARCH_ARM64 2
/* Records were dropped: the buffer filled, or the kernel lost samples. */
#define PERFMON_BUFFER_FLAG_FULL 0x1u

typedef struct perfmon_buffer_header {
  uint16_t version;
  uint16_t arch;
  uint32_t flags;
  int64_t ticks_per_second;
  uint64_t capture_end; /* offset just past the last whole record */
} perfmon_buffer_header_t;

enum {
  PERFMON_RECORD_RESERVED = 0,
  PERFMON_RECORD_TIME = 1,
  PERFMON_RECORD_TICK = 2,
  PERFMON_RECORD_COUNT = 3,
  PERFMON_RECORD_VALUE = 4,
  PERFMON_RECORD_PC = 5,
  PERFMON_RECORD_LAST_BRANCH = 6
};

#define PERFMON_MAX_NUM_LAST_BRANCH 32
#define PERFMON_LAST_BRANCH_MISPRED (1ull << 16)

#pragma pack(push, 4)
typedef struct perfmon_record_header {
  uint8_t type;
  uint8_t reserved_flags;
  perfmon_event_id_t event;
} perfmon_record_header_t;

typedef struct perfmon_time_record {
  perfmon_record_header_t header;
  uint64_t time;
} perfmon_time_record_t;

typedef struct perfmon_tick_record {
  perfmon_record_header_t header;
} perfmon_tick_record_t;

typedef struct perfmon_count_record {
  perfmon_record_header_t header;
  uint64_t count;
} perfmon_count_record_t;

typedef struct perfmon_value_record {
  perfmon_record_header_t header;
  uint64_t value;
} perfmon_value_record_t;

typedef struct perfmon_pc_record {
  perfmon_record_header_t header;
  uint64_t aspace;
  uint64_t pc;
} perfmon_pc_record_t;

typedef struct perfmon_last_branch {
  uint64_t from;
  uint64_t to;
  uint64_t info; /* bits 0-15 cycles since the previous branch (0: unknown); bit 16 mispredicted */
} perfmon_last_branch_t;

typedef struct perfmon_last_branch_record {
  perfmon_record_header_t header;
  uint32_t num_branches;
  uint64_t aspace;
  perfmon_last_branch_t branches[PERFMON_MAX_NUM_LAST_BRANCH];
} perfmon_last_branch_record_t;
#pragma pack(pop)

/* The size of a LAST_BRANCH record with n branches. */
#define PERFMON_LAST_BRANCH_RECORD_SIZE(n) \
  (sizeof(perfmon_last_branch_record_t) -  \
   (PERFMON_MAX_NUM_LAST_BRANCH - (n)) * sizeof(perfmon_last_branch_t))

#ifdef __cplusplus
}
#endif

#endif
