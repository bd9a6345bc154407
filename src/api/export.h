/* SPDX-License-Identifier: MIT */
// Include this instead of pmapi.h in src/api/: the library is built with
// -fvisibility=hidden, and the pragma gives every entry point declared in
// pmapi.h (and only those) default visibility, so dlsym finds them by name.
#pragma once

#pragma GCC visibility push(default)
#include "pmapi.h"
#pragma GCC visibility pop
