/* SPDX-License-Identifier: MIT */
// Tracepoint anchors: one disabled perf event per tracepoint the process has
// counted, kept open so that closing a program's events never closes the
// tracepoint's last one.
//
// When the last perf event of a tracepoint closes, the kernel unregisters its
// probe and waits for an RCU grace period (perf_trace_event_unreg): 25-45 ms
// on the development VM, paid by every pm_delete_program* of a program with a
// tracepoint, per tracepoint. With one more event of the tracepoint open the
// close returns in microseconds. So the first open of each tracepoint opens
// an anchor beside it: an event on the calling thread, disabled, never
// enabled, never read, not inherited: it counts nothing and changes no count.
//
// Bounded: at most kMaxTracepointAnchors, first come first kept; a tracepoint
// past the bound simply pays the wait. Released: at process exit (the kernel
// closes them, and the exiting process pays the waits once), in a forked child
// at once (the anchors join the fork service), or by ReleaseTracepointAnchors. Each anchor costs
// one descriptor, and while it is open every hit of its tracepoint anywhere
// runs the perf probe, which finds no enabled event and returns.
// PMAPI_NO_TRACEPOINT_ANCHORS=1 (checked at each open) turns anchoring off.
#pragma once

#include <linux/perf_event.h>
#include <stdint.h>

#include "base/engine_export.h"

namespace pmapi {

constexpr int kMaxTracepointAnchors = 32;

// Anchors `attr`'s tracepoint if it is one and is not anchored yet. A failure
// (no descriptor left, the bound reached) only means its deletes will wait.
void AnchorTracepoint(const perf_event_attr &attr);

// How many anchors are open, and whether `fd` is one of them: not leaks, so
// tests that count perf descriptors leave them out.
int TracepointAnchorCount();
bool IsTracepointAnchorFd(int fd);
// The anchor of tracepoint `config` (its tracefs id), or -1.
int TracepointAnchorFd(uint64_t config);

// Closes every anchor through the kernel seam. The close of each tracepoint no
// other event holds waits for the kernel's grace period.
void ReleaseTracepointAnchors();

// After fork, in the child: forgets the parent's anchors, closing the copies
// directly (the child's kernel double, if any, belongs to the parent's view).
PMAPI_ENGINE_EXPORT void DropTracepointAnchorsInChild();

}  // namespace pmapi
