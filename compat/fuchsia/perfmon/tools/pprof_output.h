/* SPDX-License-Identifier: MIT */
// cpuperf's pprof profile: every PC record of the saved buffers as a sample, symbolized with
// the shared symbolizer (compat/fuchsia/common) from the mappings the trace recorded, or from
// /proc/<pid>/maps for processes still alive.
#pragma once

#include <string>
#include <vector>

#include "lib/perfmon/types.h"
#include "session_spec.h"
#include "trace_outputs.h"

namespace cpuperf {

// Writes the gzipped profile to `path`. Returns "" or why not; *samples is how many PC records
// it holds.
std::string WritePprof(const std::string &path, const SessionSpec &spec,
                       const std::vector<SavedTrace> &traces,
                       const std::vector<perfmon_mapping_t> &mappings, size_t *samples);

}  // namespace cpuperf
