// Set-up shared by the libpmapi benchmarks: initialize once and find the
// four software events' ids.
#pragma once

#include <pmapi.h>

#include <string>
#include <vector>

// Initializes the library (once) and returns a program counting the four
// software events of raw_group.h on counters 0..3 in user and kernel mode.
pm_prog_t FourEventProgram();

// A program counting the first `n` (1..8) of raw_group.h's eight distinct
// software events on counters 0..n-1.
pm_prog_t ProgramWithEvents(int n);
