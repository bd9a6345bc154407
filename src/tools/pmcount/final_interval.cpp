// SPDX-License-Identifier: MIT
#include "final_interval.h"

namespace pmcount {

bool PrintFinalInterval(const std::vector<Sample> &delta, bool intervals_printed) {
  if (!intervals_printed) return true;
  for (const Sample &sample : delta) {
    if (sample.rc != 0 && sample.rc != Pmapi_Multiplexed) return true;
    if (sample.enabled_ns != 0 || sample.running_ns != 0) return true;
    for (uint64_t value : sample.values) {
      if (value != 0) return true;
    }
  }
  return false;
}

}  // namespace pmcount
