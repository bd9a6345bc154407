/* SPDX-License-Identifier: MIT */
// cpuperf's session spec: Fuchsia's .cpspec JSON fields, read from a file or built from the
// command line, checked field by field (an error names the field).
#pragma once

#include <stdint.h>

#include <string>
#include <vector>

#include "json.h"
#include "lib/perfmon/types.h"

namespace cpuperf {

// Specs are read with the kit's JSON reader (src/report/json.h).
using tools::Json;
using tools::ParseJson;

struct EventSpec {
  std::string group;  // "fixed", "arch", "model", "misc", "linux", "tracepoint"
  std::string name;   // "instructions_retired", "syscalls:sys_enter_getppid"
  uint32_t rate = 0;
  uint32_t flags = 0;  // PERFMON_FLAG_*
  perfmon_event_id_t id = 0;

  std::string FullName() const { return group + ":" + name; }
};

struct SessionSpec {
  std::string config_name = "cpuperf";
  std::string model_name = "default";
  std::vector<EventSpec> events;
  uint32_t buffer_size_in_mb = 16;
  double duration = 10;  // seconds, for a trace of the whole machine
  uint32_t num_iterations = 1;
  // In the current directory, as perf record's perf.data: a shared one such as /tmp would let
  // another user choose, with a planted link, what a cpuperf run as root overwrites.
  std::string output_path_prefix = "cpuperf";
  std::string session_result_spec_path = "cpuperf.cpsession";
};

// Reads a .cpspec document into *spec (fields it lacks keep their defaults). Returns "" or
// "<field>: <what is wrong>".
std::string ReadSpec(const Json &document, SessionSpec *spec);

// One event from the command line: GROUP:NAME[@RATE][/FLAG+FLAG...], flags os, user, pc,
// timebase, last_branch. Returns "" or what is wrong.
std::string ParseEventArgument(const std::string &text, EventSpec *event);

// Flag names ("os", "pc", ...) -> PERFMON_FLAG_*; false for an unknown name.
bool FlagByName(const std::string &name, uint32_t *flag);

// Looks each event's id up on this machine. Returns "" or "events[i]: ...".
std::string ResolveEvents(SessionSpec *spec);

// The perfmon config the spec asks for.
perfmon_config_t MakeConfig(const SessionSpec &spec);

}  // namespace cpuperf
