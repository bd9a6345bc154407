/* SPDX-License-Identifier: MIT */
// The timed loop of every read benchmark: the same counters read once an iteration, by hand
// (one PERF_FORMAT_GROUP read(2) of a raw group), by libpmapi (a pm_get_data_* call) or by
// PAPI (PAPI_read), so that the rows of a comparison differ only in who reads.
#pragma once

#include <benchmark/benchmark.h>
#include <pmapi.h>

#include <string>
#include <vector>

#include "pmapi_fixture.h"
#include "raw_group.h"

// Reads `group` (opened and enabled by the caller) once an iteration.
void TimeGroupReads(benchmark::State &state, const RawGroup &group);

// Opens `events` as a raw group of the calling thread, enables it and times its reads.
void TimeRawReads(benchmark::State &state, const std::vector<RawEvent> &events);

// Calls `read` once an iteration, on a program the caller has set.
void TimeDataReads(benchmark::State &state, int (*read)(pm_data_t *));

// Sets `prog`, counting from the set on, in `scope` and times the scope's read.
void TimePmapiReads(benchmark::State &state, const PmapiScope &scope, pm_prog_t prog);

// Starts a PAPI event set of `names` (at most 8) and times its PAPI_read.
void TimePapiReads(benchmark::State &state, const std::vector<std::string> &names);
