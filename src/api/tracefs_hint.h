/* SPDX-License-Identifier: MIT */
// Why a tracepoint name may be unknown although the kernel has it: the catalog lists the
// tracepoints it can read in tracefs, and tracefs is often readable by root only. Without this
// an unprivileged user asking for syscalls:sys_enter_getppid would be told that no event has a
// similar name, which sends them looking for a typo.
#pragma once

#include <string>

namespace pmapi {

// Whether `name` has a tracepoint's shape, "subsystem:event" (one colon, a lower-case
// subsystem as the kernel names them, no libpfm4 "pmu::").
bool LooksLikeTracepoint(const std::string &name);

// When tracefs exists but this user cannot read its events directory (or no tracefs is
// mounted), the sentence saying so; "" when tracefs is readable and the name is simply unknown.
std::string TracefsUnreadable();

}  // namespace pmapi
