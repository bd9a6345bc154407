/* SPDX-License-Identifier: MIT */
// A pm_prog_t from catalog ids, in the public API only: the host tests and the aarch64 guest
// suite (tests/pmu, which links nothing but libpmapi) build their programs with the same code.
#pragma once

#include <initializer_list>

#include "pmapi.h"

namespace pmapi_test {

// A program counting `ids` on counters 0, 1, ... with `mode` bits; the other counters count
// nothing.
inline pm_prog_t MakeProgram(std::initializer_list<int> ids, int mode) {
  pm_prog_t prog = {};
  prog.mode.w = mode;
  for (int &event : prog.events) event = COUNT_NOTHING;
  int counter = 0;
  for (int id : ids) prog.events[counter++] = id;
  return prog;
}

}  // namespace pmapi_test
