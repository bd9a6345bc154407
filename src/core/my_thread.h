/* SPDX-License-Identifier: MIT */
// Creating the calling thread's own context: used by pm_set_program_mythread
// and by threads that inherit their creator's program (thread_inherit.cpp).
#pragma once

#include <memory>

#include "base/status.h"
#include "core/program.h"

namespace pmapi {

class CountingGroup;

// Opens `program` on the calling thread, counting at once if `start` (and,
// for a member of `group`, while the group counts). `new_member`: the thread
// joins `group` as a thread started after it was created.
Status CreateMyThreadContext(Program program, bool start,
                             std::shared_ptr<CountingGroup> group = nullptr,
                             bool new_member = false);

// Why the calling thread, started by a thread with an inheritable context,
// has none of its own (the open failed in the new thread, where no caller could
// be told); null when it inherited or had nothing to inherit. Cleared when the
// thread sets its own program.
const Status *MissedInheritance();
void RecordMissedInheritance(const Status &status);

}  // namespace pmapi
