// SPDX-License-Identifier: MIT
// Event selection for libhpm: a request is a group name, a group number or a list of event
// names separated by commas or blanks, which the library's pm_select_events resolves
// (include/pmapi_select.h) after pm_initialize, so that catalog ids may change under us.
#include "event_set.h"
#include "events_file.h"
#include "metrics.h"

#include <pmapi_select.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace hpm {
namespace {

// Defaults, first that programs: the library's default set (pm_basic where cycles count, else
// pm_sw_basic), the software group, then one event.
const char *const kDefaults[] = {"", "pm_sw_basic", "task-clock"};

bool Initialize() {
  static const bool ok = [] {
    pm_info2_t info;
    pm_groups_info_t groups;
    memset(&info, 0, sizeof info);
    memset(&groups, 0, sizeof groups);
    int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                           PM_CURRENT);
    if (rc != 0) fprintf(stderr, "libhpm: %s\n", pm_strerror("pm_initialize", rc));
    return rc == 0;
  }();
  return ok;
}

std::string Trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Resolves one request into `out` (program and names); on failure `why` says what is wrong
// with it. A group's members are programmed one a counter, as a list, so that every column
// is counted.
bool Resolve(const std::string &request, EventSet *out, std::string *why) {
  pm_selection_t chosen;
  if (pm_select_events(request.c_str(), PM_SELECT_GROUP_NUMBERS | PM_SELECT_BLANKS, &chosen) != 0) {
    *why = chosen.refusal == PM_SELECT_UNKNOWN_EVENT
               ? "'" + std::string(chosen.refused) +
                     "' is no group or event of this machine's catalog (pmlist lists them)"
               : chosen.why;
    return false;
  }
  out->prog = chosen.prog;
  out->prog.mode.b.is_group = 0;
  out->names.clear();
  std::string list;
  for (int e = 0; e < chosen.nevents; ++e) {
    out->prog.events[e] = chosen.events[e].event_id;
    out->names.push_back(chosen.events[e].name);
    list += (e ? "," : "") + out->names.back();
  }
  out->group_id = chosen.group_id;
  out->description = chosen.group_id >= 0 ? "group " + std::string(chosen.group_name) + " (" +
                                                std::to_string(chosen.group_id) + ")"
                                          : "events " + list;
  return true;
}

bool Program(EventSet *set, std::string *why) {
  int rc = pm_set_program_mythread(&set->prog);
  set->programmed_here = rc == 0;
  if (rc == Pmapi_ProgExists) {
    // The thread is already programmed (the host uses pm_*_mythread itself,
    // or a second run reuses an inherited context): count with what it has.
    return true;
  }
  if (rc != 0) {
    *why = pm_strerror("pm_set_program_mythread", rc);
    return false;
  }
  return true;
}

// The requested set and where it came from; empty when nothing asks. A
// libHPMevents file that cannot be used leaves `refused` saying why.
std::string Request(std::string *source, std::string *refused) {
  const char *env = getenv("HPM_EVENT_SET");
  if (env && *env) {
    *source = "HPM_EVENT_SET";
    return env;
  }
  std::string text;
  switch (ReadEventsFile(&text, refused)) {
    case EventsFile::kAbsent:
    case EventsFile::kRefused:
      return "";
    case EventsFile::kRead:
      break;
  }
  *source = kEventsFileName;
  return Trim(text);
}

}  // namespace

bool ChooseAndProgram(EventSet *out) {
  if (!Initialize()) return false;
  std::string source, refused;
  std::string request = Request(&source, &refused);
  if (!refused.empty()) {
    fprintf(stderr, "libhpm: %s; counting the defaults instead\n", refused.c_str());
  } else if (!request.empty() || !source.empty()) {
    std::string why = "names no event or group";
    if (request.find_first_not_of(" \t\r\n,") != std::string::npos && Resolve(request, out, &why) &&
        Program(out, &why)) {
      out->source = source;
      AttachMetrics(out);
      return true;
    }
    // On one line: a libHPMevents file may put one name a line.
    std::string shown = request;
    for (char &ch : shown) {
      if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
    }
    fprintf(stderr, "libhpm: %s '%s': %s; counting the defaults instead\n", source.c_str(),
            shown.c_str(), why.c_str());
  }
  std::string last_why;
  for (const char *fallback : kDefaults) {
    std::string why;
    if (Resolve(fallback, out, &why) && Program(out, &why)) {
      out->source = "defaults";
      AttachMetrics(out);
      return true;
    }
    last_why = why;
  }
  fprintf(stderr, "libhpm: no default event could be counted (%s); sections count calls and time\n",
          last_why.c_str());
  out->names.clear();
  out->group_id = -1;
  out->description = "none";
  out->source = "defaults";
  return false;
}

}  // namespace hpm
