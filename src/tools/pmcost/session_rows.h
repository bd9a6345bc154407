/* SPDX-License-Identifier: MIT */
// pmcost's rows of the counting session (pmapi_session.h): its hot calls on the calling thread,
// with software events, each on a descriptor of its own, so that a read of N events is N
// read(2) calls and the rows say what the session adds to them.
#pragma once

#include <string>
#include <vector>

// pmcost's row printers (main.cpp): a row of times, or a row that could not be measured.
using PrintRowFn = void (*)(const std::string &call, std::vector<double> &ns);
using PrintSkippedFn = void (*)(const std::string &call, const char *why);

// Prints "pm_session_read (1 software event)", "pm_session_read (8 software events)" and
// "pm_session_start+pm_session_stop (8 software events)", each `n` calls; a session the kernel
// refuses is a skipped row with pm_strerror's reason. Needs pm_initialize done.
void MeasureSession(long n, std::vector<double> *times, PrintRowFn row, PrintSkippedFn skipped);
