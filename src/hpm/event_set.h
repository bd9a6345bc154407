// Which events libhpm counts: HPM_EVENT_SET, else a libHPMevents file in the
// working directory, else the defaults; resolved through the public catalog
// (pm_initialize) into one pm_prog_t for every thread's _mythread context.
#pragma once

#include <pmapi.h>

#include <string>
#include <vector>

namespace hpm {

struct EventSet {
  pm_prog_t prog;                  // counting on, user and kernel mode
  std::vector<std::string> names;  // the event on each counter, counter 0 first
  std::string description;         // "group pm_sw_basic (100)" or "events a,b"
  std::string source;              // "HPM_EVENT_SET", "libHPMevents" or "defaults"
};

// Chooses the events and programs the calling thread with them. A request
// that names nothing known, or that the kernel refuses, is reported on
// stderr once and replaced by the defaults. False when not even the
// defaults could be programmed (the message says why): sections then
// count calls and time only.
bool ChooseAndProgram(EventSet *out);

}  // namespace hpm
