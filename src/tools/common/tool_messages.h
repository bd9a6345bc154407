/* SPDX-License-Identifier: MIT */
// The words every tool says a usage error and its version with, written once so that the nine
// tools answer alike (NetBSD's pmc, a C tool, prints the same two forms itself).
#pragma once

#include <string>

namespace tools {

// The exit status of a usage error, in every tool.
constexpr int kUsageExit = 2;

// Prints "TOOL: MESSAGE" and "Try 'TOOL --help' for more information." on standard error;
// returns kUsageExit.
int UsageError(const char *tool, const std::string &message);

// --version's line: "TOOL (libpmapi) VERSION\n".
std::string VersionText(const char *tool);

// Writes VersionText(tool) on standard output; 0, or 1 when it cannot be written.
int PrintVersion(const char *tool);

}  // namespace tools
