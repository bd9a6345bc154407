/* SPDX-License-Identifier: MIT */
/* Shared by the load-order test programs: libpmapi reached through function pointers (the
 * programs load it with dlopen), the event ids by name, and the resident set size. */
#ifndef PMAPI_LOAD_ORDER_PROBE_H
#define PMAPI_LOAD_ORDER_PROBE_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The exit status ctest reports as skipped. */
#define PROBE_SKIP 77

typedef int (*InitializeFn)(int, pm_info2_t *, pm_groups_info_t *, int);
typedef int (*SetProgramFn)(pm_prog_t *);
typedef int (*GetDataFn)(pm_data_t *);
typedef int (*PlainFn)(void);

/* Resolves `name` in `library` or exits with a message. */
static inline void *probe_symbol(void *library, const char *name) {
  void *found = dlsym(library, name);
  if (!found) {
    fprintf(stderr, "FAIL: %s not found: %s\n", name, dlerror());
    exit(1);
  }
  return found;
}

static inline void *probe_open(const char *path) {
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "FAIL: dlopen(%s): %s\n", path, dlerror());
    exit(1);
  }
  return library;
}

static inline int probe_event_id(const pm_info2_t *info, const char *name) {
  int i;
  for (i = 0; i < info->maxevents[0]; ++i) {
    if (strcmp(info->list_events[0][i].short_name, name) == 0) {
      return info->list_events[0][i].event_id;
    }
  }
  return COUNT_NOTHING;
}

/* A program of one event, counting at once. */
static inline pm_prog_t probe_program(int event) {
  pm_prog_t prog;
  int i;
  memset(&prog, 0, sizeof prog);
  for (i = 0; i < MAX_COUNTERS; ++i) prog.events[i] = COUNT_NOTHING;
  prog.events[0] = event;
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  return prog;
}

static inline void probe_getppid(int calls) {
  int i;
  for (i = 0; i < calls; ++i) syscall(SYS_getppid);
}

/* VmRSS of this process in KiB, -1 when unreadable. */
static inline long probe_resident_kib(void) {
  char line[256];
  long kib = -1;
  FILE *status = fopen("/proc/self/status", "r");
  if (!status) return -1;
  while (fgets(line, sizeof line, status)) {
    if (sscanf(line, "VmRSS: %ld", &kib) == 1) break;
  }
  fclose(status);
  return kib;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PROBE_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PROBE_UNDER_SANITIZER 1
#endif
#endif

#endif
