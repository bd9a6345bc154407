/* SPDX-License-Identifier: MIT */
/* perfmon event ids: 16 bits, the group in the top 5, the event in the low 11, as in
 * Fuchsia. Groups 1-4 are Fuchsia's (arch, fixed, model, misc); 5-7 are ours and name
 * what every Linux machine has, hardware PMU or not: the kernel's software events and its
 * tracepoints (by tracefs id, which may need 12 bits: groups 6 and 7 hold ids 0-2047 and
 * 2048-4095). */
#ifndef LIBPMAPI_COMPAT_FUCHSIA_PERFMON_EVENTS_H_
#define LIBPMAPI_COMPAT_FUCHSIA_PERFMON_EVENTS_H_

#include <stddef.h>
#include <stdint.h>

#include "lib/perfmon/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t perfmon_event_id_t;

#define PERFMON_EVENT_ID_NONE 0
#define PERFMON_GROUP_SHIFT 11
#define PERFMON_MAX_GROUP 0x1f
#define PERFMON_MAX_EVENT 0x7ff
#define PERFMON_MAKE_EVENT_ID(group, event) \
  ((perfmon_event_id_t)(((group) << PERFMON_GROUP_SHIFT) | (event)))
#define PERFMON_EVENT_ID_GROUP(id) (((id) >> PERFMON_GROUP_SHIFT) & PERFMON_MAX_GROUP)
#define PERFMON_EVENT_ID_EVENT(id) ((id)&PERFMON_MAX_EVENT)

enum {
  PERFMON_GROUP_RESERVED = 0,
  PERFMON_GROUP_ARCH = 1,
  PERFMON_GROUP_FIXED = 2,
  PERFMON_GROUP_MODEL = 3,
  PERFMON_GROUP_MISC = 4,
  PERFMON_GROUP_LINUX = 5,        /* software events: "linux:cpu-clock", ... */
  PERFMON_GROUP_TRACEPOINT = 6,   /* "tracepoint:syscalls:sys_enter_getppid", tracefs id < 2048 */
  PERFMON_GROUP_TRACEPOINT_HI = 7 /* the same, tracefs id 2048-4095 */
};

/* The id of "group:name" ("fixed:instructions_retired", "linux:task-clock",
 * "tracepoint:syscalls:sys_enter_getppid") or of group `group_name` and event `event_name`
 * given apart (group_name NULL: `event_name` is "group:name"). ZX_ERR_NOT_FOUND for a name
 * this machine does not have, ZX_ERR_INVALID_ARGS for an unknown group. */
zx_status_t perfmon_lookup_event(const char *group_name, const char *event_name,
                                 perfmon_event_id_t *id);

/* "group:name" of `id` into buf (size bytes, NUL-terminated, cut if needed); ZX_ERR_NOT_FOUND
 * when the id names nothing known here (the text is then "0x<id>"). */
zx_status_t perfmon_event_name(perfmon_event_id_t id, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
