/* SPDX-License-Identifier: MIT */
// The report hpmTerminate writes: a text file per task, <name><task>.<pid>
// (name "perfhpm" unless HPM_OUTPUT_NAME says otherwise), and the same data
// as JSON in <name><task>.<pid>.json.
#pragma once

#include <string>

#include "run.h"

namespace hpm {

// The text file's path for this run (the JSON one adds ".json").
std::string ReportPath(const Run &run);
// Writes both files; false, with a message on stderr, when one cannot be written.
bool WriteReports(const Run &run);

}  // namespace hpm
