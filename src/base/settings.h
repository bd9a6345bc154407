/* SPDX-License-Identifier: MIT */
// The library's settings, in one value: read from the environment once, on first use, and
// changed afterwards only by SetSetting (pm_set_setting, include/pmapi_settings.h), never by
// setenv, which races other threads and leaks into children. docs/settings.md is their table.
#pragma once

#include <stddef.h>

#include <functional>
#include <string>

#include "base/status.h"

namespace pmapi {

// The variables, each named once here.
constexpr const char kEventsDirVariable[] = "PMAPI_EVENTS_DIR";
constexpr const char kGroupsDirVariable[] = "PMAPI_GROUPS_DIR";
constexpr const char kTracepointPatternsVariable[] = "PMAPI_LIST_TRACEPOINTS";
constexpr const char kNoCacheVariable[] = "PMAPI_NO_CACHE";
constexpr const char kNoForkCounterVariable[] = "PMAPI_NO_FORK_COUNTER";
constexpr const char kNoAnchorsVariable[] = "PMAPI_NO_TRACEPOINT_ANCHORS";
constexpr const char kNoUserSpaceReadVariable[] = "PMAPI_NO_USERSPACE_READ";
constexpr const char kMpiEventsVariable[] = "PMAPI_MPI_EVENTS";
constexpr const char kMpiOutputVariable[] = "PMAPI_MPI_OUTPUT";

// A field added here is compared in settings.cpp's SameSettings too.
struct Settings {
  // The catalog's, used when it is built (the process's first pm_initialize).
  std::string events_dir;        // PMAPI_EVENTS_DIR: a directory of site event tables
  std::string groups_dir;        // PMAPI_GROUPS_DIR: a directory of site group tables
  std::string list_tracepoints;  // PMAPI_LIST_TRACEPOINTS: more tracepoints to list
  bool no_cache = false;         // PMAPI_NO_CACHE: always build the catalog from its sources
  // The core's, used at each pm_set_program* (a switch is on when set to anything but "" or "0").
  bool no_fork_counter = false;        // PMAPI_NO_FORK_COUNTER: no group member counter
  bool no_tracepoint_anchors = false;  // PMAPI_NO_TRACEPOINT_ANCHORS
  bool no_userspace_read = false;      // PMAPI_NO_USERSPACE_READ
  // libpmapi-mpi's, used at MPI_Init and MPI_Finalize (docs/mpi.md).
  std::string mpi_events;  // PMAPI_MPI_EVENTS: what each rank counts
  std::string mpi_output;  // PMAPI_MPI_OUTPUT: the file of the job's totals
  // The system's, which decide where the catalog cache lives and whether it may be used.
  std::string runtime_dir;        // XDG_RUNTIME_DIR
  std::string temp_dir;           // TMPDIR
  bool libpfm_variables = false;  // a LIBPFM_* variable is set (libpfm4 reads them itself)
};

// The settings in force. The first call reads the environment; later ones take no lock and
// allocate nothing (safe in a forked child and in a signal handler). The reference stays valid
// until exit: a change publishes another value instead of writing into this one, and values
// are kept once each (a program switching a setting on and off keeps two, not one per call).
const Settings &CurrentSettings();

// Sets the setting the variable `name` names (the table of settings.cpp) as if the environment
// had held `value`; nullptr puts back what the environment held. Pmapi_InvalidArg for a name
// that is not a setting.
Status SetSetting(const char *name, const char *value);

// Stores in `text` the value in force of the setting `name`: a string setting's text ("" when
// unset), or "1" or "0" for a switch; valid until exit. Pmapi_InvalidArg, `text` untouched, for a
// name that is not a setting.
Status SettingText(const char *name, const char **text);

// For tests: applies `change` to a copy of the settings in force and publishes it.
void ChangeSettings(const std::function<void(Settings *)> &change);

// For tests: how many distinct values of the settings the process has kept (the
// environment's included).
size_t StoredSettingsValues();

// For tests: puts back every setting the environment held when it was read.
void RestoreSettingsFromEnvironment();

}  // namespace pmapi
