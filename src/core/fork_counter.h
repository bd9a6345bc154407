/* SPDX-License-Identifier: MIT */
// The sched:sched_process_fork tracepoint, with which a counting group has
// the kernel count its members (every thread or process created in it).
//
// Closing the last perf event of a tracepoint makes the kernel unregister it
// and wait for an RCU grace period: 25-45 ms on the development VM, paid by
// every pm_delete_program_*group. The tracepoint is anchored like every other
// one the process counts (tracepoint_anchors.h), before the first group opens.
#pragma once

#include <linux/perf_event.h>

namespace pmapi {

// The tracepoint's attributes, or false without tracefs access
// (unprivileged users, tracefs not mounted).
bool ForkCounterAttr(perf_event_attr *attr);

// Opens the process's anchor event on the tracepoint, once. A failure only
// means deletes will wait.
void AnchorForkCounter(const perf_event_attr &attr);

// The anchor's descriptor, or -1: not a leak, tests leave it out of counts.
int ForkCounterAnchorFd();

}  // namespace pmapi
