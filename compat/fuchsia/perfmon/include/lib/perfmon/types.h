/* SPDX-License-Identifier: MIT */
/* The values the perfmon controller exchanges, laid out as Fuchsia's FIDL
 * (fuchsia.perfmon.cpu) lays them out: Properties, Allocation, EventConfig, Config. */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_TYPES_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_TYPES_H_

#include <stdint.h>

#include "lib/perfmon/events.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERFMON_API_VERSION 0
#define PERFMON_MAX_NUM_EVENTS 32
/* The largest buffer per CPU: 256 MiB of 4 KiB pages, as Fuchsia's driver. */
#define PERFMON_MAX_BUFFER_PAGES 65536u
#define PERFMON_PAGE_SIZE 4096u

/* EventConfig.flags */
#define PERFMON_FLAG_COLLECT_OS 0x1u
#define PERFMON_FLAG_COLLECT_USER 0x2u
#define PERFMON_FLAG_COLLECT_PC 0x4u
#define PERFMON_FLAG_IS_TIMEBASE 0x8u
#define PERFMON_FLAG_COLLECT_LAST_BRANCH 0x10u
#define PERFMON_FLAG_ALL 0x1fu

/* Properties.flags */
#define PERFMON_PROPERTY_HAS_LAST_BRANCH 0x1ull

typedef struct perfmon_properties {
  uint16_t api_version;
  uint16_t pm_version;
  uint16_t max_num_events;
  uint16_t max_num_fixed_events;
  uint16_t max_fixed_counter_width;
  uint16_t max_num_programmable_events;
  uint16_t max_programmable_counter_width;
  uint16_t max_num_misc_events;
  uint16_t max_misc_counter_width;
  uint64_t flags;
} perfmon_properties_t;

typedef struct perfmon_allocation {
  uint32_t num_buffers;          /* must be the number of CPUs */
  uint32_t buffer_size_in_pages; /* 4 KiB pages per CPU, 1..PERFMON_MAX_BUFFER_PAGES */
} perfmon_allocation_t;

typedef struct perfmon_event_config {
  perfmon_event_id_t event; /* 0: this slot and every later one are empty */
  uint32_t rate;            /* a record every `rate` events; 0: count only */
  uint32_t flags;           /* PERFMON_FLAG_* */
} perfmon_event_config_t;

typedef struct perfmon_config {
  perfmon_event_config_t events[PERFMON_MAX_NUM_EVENTS];
} perfmon_config_t;

/* Our extension: what the events watch. Fuchsia traces the whole machine (pid 0 here, root or
 * CAP_PERFMON needed); a pid limits tracing to that process and the children it makes from
 * then on, on every CPU, which an unprivileged user may do for their own processes. With
 * enable_on_exec the events start counting only when that process next calls exec(2): the
 * way a tool traces exactly a command it forked. */
typedef struct perfmon_target {
  int32_t pid;
  uint32_t enable_on_exec;
} perfmon_target_t;

/* Our extension, for symbolizing PC records: an executable file mapping made by a traced
 * process while the trace ran (the kernel's PERF_RECORD_MMAP2), recorded when an event
 * collects PCs. A process's mappings made before Start are in /proc/<pid>/maps instead. */
typedef struct perfmon_mapping {
  int32_t pid;
  uint32_t reserved;
  uint64_t start;
  uint64_t end;
  uint64_t file_offset;
  char path[4096];
} perfmon_mapping_t;

#ifdef __cplusplus
}
#endif

#endif
