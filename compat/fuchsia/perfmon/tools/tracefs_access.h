/* SPDX-License-Identifier: MIT */
// Why a tracepoint may be missing although the kernel has it: the event ids list the
// tracepoints tracefs shows, and tracefs is often readable by root only. Saying "this machine
// has no event" then sends an unprivileged user looking for a typo.
#pragma once

#include <string>

namespace cpuperf {

// The sentence saying that tracefs is closed to this user or not mounted; "" when it is
// readable (the name is then simply unknown).
std::string TracefsUnreadable();

}  // namespace cpuperf
