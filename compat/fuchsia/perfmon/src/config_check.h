/* SPDX-License-Identifier: MIT */
// StageConfig's rules: Fuchsia's driver's checks, plus the ones it left as TODOs (duplicates,
// a timebase with rate 0), judged against this machine's properties.
#pragma once

#include <string>

#include "lib/perfmon/types.h"

namespace perfmon {

// ZX_OK, or the status StageConfig returns and, in *why, the rule broken and the slot.
zx_status_t CheckConfig(const perfmon_config_t &config, const perfmon_properties_t &props,
                        std::string *why);

// The number of events before the first empty slot.
size_t CountEvents(const perfmon_config_t &config);

}  // namespace perfmon
