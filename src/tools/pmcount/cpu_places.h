/* SPDX-License-Identifier: MIT */
// Where each CPU pmcount reports sits (its core and socket), for --per-core and --per-socket:
// asked of libpmapi's topology extension (pmapi_topology.h), which asks hwloc.
#pragma once

#include <vector>

#include "count_rows.h"
#include "options.h"

namespace pmcount {

// One place per Linux CPU in `linux_cpus`, in that order. Without `with_topology` only the CPU
// number is filled (the hwloc load it saves costs milliseconds); a CPU the library cannot place
// keeps core and package -1 (it then gets a row of its own).
std::vector<CpuPlace> PlacesOf(const std::vector<int> &linux_cpus, bool with_topology);

}  // namespace pmcount
