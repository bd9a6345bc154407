// Creating the calling thread's own context: used by pm_set_program_mythread
// and by threads that inherit their creator's program (thread_inherit.cpp).
#pragma once

#include "core/program.h"
#include "core/status.h"

namespace pmapi {

// Opens `program` on the calling thread, counting at once if `start`.
Status CreateMyThreadContext(Program program, bool start);

}  // namespace pmapi
