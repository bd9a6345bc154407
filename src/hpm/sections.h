/* SPDX-License-Identifier: MIT */
// Starting and stopping sections in the calling thread: a per-thread stack of
// open sections holds the counts read at each start; a stop adds the
// difference (inclusive) and that minus the nested sections' (exclusive) to
// the run's section table, which every thread shares.
#pragma once

#include <stddef.h>

#include "run.h"

namespace hpm {

// `label` is read at the section's first start only; label_len is its
// length, or SIZE_MAX when NUL-terminated (it may be null).
void StartSection(Run *run, int id, const char *label, size_t label_len, const char *file, int line,
                  bool threaded);
void StopSection(Run *run, int id, const char *file, int line);
// Stops every section the calling thread still has open (at hpmTerminate).
void StopAllSections(Run *run, const char *file, int line);
// In a forked child, from a pthread_atfork handler (one thread, the one that
// forked): the child's report holds what the child counts. Its section table
// starts empty; the sections the thread has open go on, counted from the fork,
// and the thread is programmed afresh at its next call (libpmapi dropped the
// child's copy of its context). The parent's counts are the parent's.
void ContinueInChild(Run *run);
// The calling thread's counts since its context started; false (values
// zeroed) when the thread counts nothing.
bool ReadThreadCounts(Run *run, long long values[MAX_COUNTERS]);

}  // namespace hpm
