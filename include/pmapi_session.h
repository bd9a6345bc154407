/* SPDX-License-Identifier: MIT */
/* pmapi_session.h: libpmapi's counting session (AIX's pmapi has no such thing): any number of
 * events, each with its own privilege modifiers, counted on threads, a process and what it
 * starts, a list of CPUs or a cgroup, and read as totals, per CPU or per target. Include it
 * after <pmapi.h> or instead of it; link with -lpmapi. docs/session.md has the details and
 * examples/session.c a whole program.
 *
 *   pm_session_t *s;
 *   pm_session_create(0, &s);
 *   pm_session_add_events(s, "page-faults:u,page-faults:k,syscalls:sys_enter_*", NULL);
 *   pm_session_add_process(s, pid);              (none added: the calling thread)
 *   pm_session_start(s);
 *   ... the work ...
 *   pm_session_stop(s);
 *   pm_session_read(s, counts, n);               counts[i] is event i, in the order added
 *   pm_session_destroy(s);
 *
 * Events. pm_session_add_events takes a comma-separated list written as pm_select_events
 * (pmapi_select.h) takes one: pmlist's names, perf's generic names, libpfm4 strings, "pmu/event/"
 * and tracepoints "subsystem:name". Each event carries its own modifiers: ":u" (user), ":k"
 * (kernel), ":h" (hypervisor) and their combinations (":uk"), libpfm4's ":u=0", ":k=1", or
 * letters after perf's closing slash ("msr/tsc/u"); an event without counts every level. So
 * "page-faults:u,page-faults:k" is two events. A shell wildcard ('*', '?', '[') expands, by
 * pmlist's search rule, to every event of the catalog whose name matches and that can be
 * counted here, in id order, each with the pattern's modifiers: "syscalls:sys_enter_*" adds
 * every system-call entry tracepoint. Groups (pmlist -g) are not events here.
 *
 * How events are counted. A software event, a tracepoint and an event of another kernel PMU
 * (msr/tsc) each get a descriptor of their own per CPU or thread counted: they are never
 * multiplexed and count exactly, however many there are; the limit is the process's open-file
 * limit, and an open that would pass it fails with Pmapi_TooManyFiles naming `ulimit -n` and
 * the number of descriptors the session needs. Hardware events (those on the processor's
 * counters) are packed into groups that fit the counters, checked when the session opens (a
 * group is tried on the calling thread, as pm_set_program* checks a program); when every group
 * fits at once they are pinned and counted all the time; when they do not, the kernel rotates
 * them and each count is scaled from its enabled and running times (pm_session_count_t). A
 * hardware event that does not fit the counters even alone fails the open
 * (Pmapi_NotSchedulable), never silently.
 *
 * Targets, counted from the session's start; each added target has the next index (0, 1, ...):
 *   - pm_session_add_thread: one thread (0: the calling thread);
 *   - pm_session_add_process: every thread of a process when the session opens, and every
 *     thread and child process those create afterwards (perf's inherit);
 *   - pm_session_add_cpus: everything that runs on each CPU of a list (needs root, or
 *     CAP_PERFMON, with kernel.perf_event_paranoid above 0);
 *   - pm_session_add_cgroup: every task in a cgroup v2 directory (its path under
 *     /sys/fs/cgroup, what a job scheduler puts a job in), on each CPU of a list.
 * CPUs are the dense ids pm_get_data_cpu and pmapi_topology.h use (hwloc's logical order);
 * NULL and 0 mean every online CPU. A session with no target counts the thread that opens it.
 *
 * Life: create, add events and targets, open (or start, which opens), start and stop any
 * number of times, reset, read, destroy. Adding after the session opened gives
 * Pmapi_ProgExists. A session is used by one thread at a time; separate sessions, and the
 * pm_* contexts, are independent of each other. After fork the child may only destroy its copy.
 *
 * Errors. Every call returns 0 or a pmapi error code (pmapi.h); pm_strerror and pm_error then
 * add a sentence naming what failed (the event, the CPU or thread) and what to do. No call
 * leaves a descriptor open after it fails: a failed open closes everything it opened. */
#ifndef PMAPI_SESSION_H
#define PMAPI_SESSION_H

#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PM_SESSION_NAME_MAX 256 /* a name's bytes with its NUL */

typedef struct pm_session pm_session_t; /* opaque */

/* pm_session_event_t.kind */
enum pm_session_kind {
  PM_SESSION_HARDWARE = 1,   /* on the processor's counters: grouped, rotated if need be */
  PM_SESSION_SOFTWARE = 2,   /* a kernel software event: a descriptor of its own */
  PM_SESSION_TRACEPOINT = 3, /* a kernel tracepoint: a descriptor of its own */
  PM_SESSION_PMU = 4         /* another kernel PMU's event (msr/tsc): a descriptor of its own */
};

typedef struct {
  char name[PM_SESSION_NAME_MAX]; /* its name and modifiers: "page-faults:u" */
  int event_id;                   /* its catalog id (pmlist's) */
  int kind;                       /* enum pm_session_kind */
  int user, kernel, hypervisor;   /* 1 for each privilege level it counts */
  int group;                      /* hardware events: the index of its group (those of one group
                                     count together), known once the session is open; -1 for an
                                     event on a descriptor of its own, and before the open */
} pm_session_event_t;

typedef struct {
  uint64_t value;   /* the count: `raw` scaled to the enabled time when `scaled` */
  uint64_t raw;     /* what the kernel counted */
  uint64_t enabled; /* nanoseconds the event was enabled (summed over CPUs and threads) */
  uint64_t running; /* nanoseconds it was on a counter */
  int scaled;       /* 0: counted all the time, value == raw; 1: value is the estimate
                       raw * enabled / running (running 0: not counted at all, value 0) */
} pm_session_count_t;

/* pm_session_create's flags. PM_SESSION_FLEXIBLE: hardware groups are never pinned, even when
 * they all fit the counters at once, so that another user's pinned counting takes the counters
 * first (a monitoring agent that must step aside); such a session's counts then show a running
 * time below the enabled time, and are scaled, whenever it had to wait. */
#define PM_SESSION_FLEXIBLE 0x1

/* A new, empty session in *session. `flags` is 0 or PM_SESSION_FLEXIBLE. Returns 0,
 * Pmapi_InvalidArg (NULL, or another flag), Pmapi_Malloc_Err. */
int pm_session_create(int flags, pm_session_t **session);

/* Closes every descriptor and frees the session. NULL is accepted. */
void pm_session_destroy(pm_session_t *session);

/* Adds the events of `spec` (above), after those added before; *added (when not NULL) receives
 * how many. Needs pm_initialize (or pm_init) first. On an error nothing is added. Returns 0,
 * Pmapi_InvalidEvent (an unknown name, a pattern that matches nothing countable, bad
 * modifiers: the sentence names it, with "did you mean"), Pmapi_NoInit, Pmapi_InvalidArg,
 * Pmapi_ProgExists (already open), Pmapi_Malloc_Err. */
int pm_session_add_events(pm_session_t *session, const char *spec, int *added);

/* How many events the session has. Returns 0 or Pmapi_InvalidArg. */
int pm_session_nevents(const pm_session_t *session, int *nevents);

/* What event `index` (0..nevents-1) is. Returns 0 or Pmapi_InvalidArg. */
int pm_session_event_info(const pm_session_t *session, int index, pm_session_event_t *info);

/* Targets. Each returns 0, Pmapi_InvalidArg, Pmapi_ProgExists (already open),
 * Pmapi_Malloc_Err; pm_session_add_cpus and pm_session_add_cgroup also Pmapi_InvalidCpu for a
 * CPU id out of range or repeated. Whether a thread, process or cgroup exists is known at the
 * open (Pmapi_NoSuchThread, or Pmapi_InvalidArg naming the directory). */
int pm_session_add_thread(pm_session_t *session, pid_t tid);
int pm_session_add_process(pm_session_t *session, pid_t pid);
int pm_session_add_cpus(pm_session_t *session, const int *cpus, int ncpus);
int pm_session_add_cgroup(pm_session_t *session, const char *path, const int *cpus, int ncpus);

/* Opens every event on every target, disabled (start enables them). Returns 0, or the first
 * failure with everything closed: Pmapi_NoEvents (no event added), Pmapi_TooManyFiles (the
 * sentence says how many descriptors the session needs and the `ulimit -n` to ask for),
 * Pmapi_NotSchedulable (a hardware event that does not fit the counters), Pmapi_NoHardware,
 * Pmapi_Permission, Pmapi_NoSuchThread, Pmapi_KernelError. Opening an open session does
 * nothing. */
int pm_session_open(pm_session_t *session);

/* Counting on (opening first if need be) and off, every event of every target at once.
 * Starting a counting session or stopping a stopped one does nothing; a start that fails leaves
 * nothing counting. Returns 0 or the open's codes, Pmapi_NoSetProg (stop or reset before the
 * open), Pmapi_KernelError. */
int pm_session_start(pm_session_t *session);
int pm_session_stop(pm_session_t *session);
/* Counts and times back to zero, counting or not; a reset that fails leaves them as they were. */
int pm_session_reset(pm_session_t *session);

/* Reads. `counts` receives event i in counts[i], for i < ncounts and i < nevents (a larger
 * array is left alone past nevents). Values are the sum over the part read: every target
 * (pm_session_read), the targets counted on dense CPU `cpu` (pm_session_read_cpu), or target
 * `target` in the order added (pm_session_read_target). Times add up as the counts do, so an
 * event on 4 CPUs for 1 s shows 4 s enabled. Returns 0, Pmapi_NoSetProg (not open),
 * Pmapi_InvalidArg, Pmapi_CpuNotCounted (no target counts that CPU: thread and process targets
 * are not per CPU), Pmapi_ShortRead, Pmapi_KernelError. */
int pm_session_read(pm_session_t *session, pm_session_count_t *counts, int ncounts);
int pm_session_read_cpu(pm_session_t *session, int cpu, pm_session_count_t *counts, int ncounts);
int pm_session_read_target(pm_session_t *session, int target, pm_session_count_t *counts,
                           int ncounts);

#ifdef __cplusplus
}
#endif

#endif /* PMAPI_SESSION_H */
