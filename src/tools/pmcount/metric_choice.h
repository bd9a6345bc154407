/* SPDX-License-Identifier: MIT */
// -M NAME[,NAME], as perf stat -M: each name a derived metric (CPUs_utilized) or a group
// (pm_sw_basic), turned into the group to count and the metrics of it to show.
#pragma once

#include <string>

#include "options.h"

namespace pmcount {

// Sets options->group and options->metric_names from options->metrics (nothing when it is
// empty). A group's name shows all its metrics; a metric's name counts the first group of this
// machine (by id) that defines it. Needs pm_initialize done. Returns "" or a usage error: a
// name that is neither, names of different groups.
std::string ChooseMetrics(Options *options);

}  // namespace pmcount
