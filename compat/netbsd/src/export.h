/* SPDX-License-Identifier: MIT */
// Include this first (before anything that includes <sys/pmc.h>) in the entry-point
// files: the layer is built with -fvisibility=hidden (the core's symbols must
// stay private to libpmc), and the pragma gives the declared C entry points,
// and only those, default visibility.
#pragma once

#pragma GCC visibility push(default)
#include <pmc_events.h>
#include <sys/pmc.h>
#pragma GCC visibility pop
