// Creating the calling thread's own context: used by pm_set_program_mythread
// and by threads that inherit their creator's program (thread_inherit.cpp).
#pragma once

#include <memory>

#include "core/program.h"
#include "core/status.h"

namespace pmapi {

class CountingGroup;

// Opens `program` on the calling thread, counting at once if `start` (and,
// for a member of `group`, while the group counts). `new_member`: the thread
// joins `group` as a thread started after it was created.
Status CreateMyThreadContext(Program program, bool start,
                             std::shared_ptr<CountingGroup> group = nullptr,
                             bool new_member = false);

}  // namespace pmapi
