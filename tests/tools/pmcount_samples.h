/* SPDX-License-Identifier: MIT */
// A Sample as pmcount's reads hand it over (src/tools/common/pmapi_counting.h), for the unit tests
// of its pure parts: the first counters' values, the times, the read's status.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "options.h"
#include "pmapi_counting.h"

namespace pmcount {

inline Sample MakeSample(std::initializer_list<uint64_t> values, uint64_t enabled_ns,
                         uint64_t running_ns, int rc = 0) {
  Sample sample;
  int counter = 0;
  for (uint64_t value : values) sample.values[counter++] = value;
  sample.enabled_ns = enabled_ns;
  sample.running_ns = running_ns;
  sample.rc = rc;
  return sample;
}

}  // namespace pmcount
