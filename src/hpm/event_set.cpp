// Event selection for libhpm: a request is a group name, a group number or a
// comma-separated list of catalog event names, looked up by name through
// pm_initialize so that catalog ids may change under us.
#include "event_set.h"
#include "events_file.h"
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace hpm {
namespace {

// Defaults, first that programs: the portable hardware group, then the
// software group that counts on machines without a PMU, then one event.
const char *const kDefaults[] = {"pm_basic", "pm_sw_basic", "task-clock"};

struct Catalog {
  pm_info2_t info;
  pm_groups_info_t groups;
  bool ok = false;
};

const Catalog &LoadCatalog() {
  static Catalog catalog = [] {
    Catalog c;
    memset(&c.info, 0, sizeof c.info);
    memset(&c.groups, 0, sizeof c.groups);
    int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &c.info,
                           &c.groups, PM_CURRENT);
    if (rc != 0) {
      fprintf(stderr, "libhpm: %s\n", pm_strerror("pm_initialize", rc));
    }
    c.ok = rc == 0;
    return c;
  }();
  return catalog;
}

std::string Trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Splits at commas and blanks (a libHPMevents file may put one name a line).
std::vector<std::string> SplitNames(const std::string &text) {
  std::vector<std::string> names;
  std::string current;
  for (char ch : text) {
    if (ch == ',' || ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      if (!current.empty()) names.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!current.empty()) names.push_back(current);
  return names;
}

const char *EventName(const Catalog &c, int counter, int id) {
  for (int i = 0; i < c.info.maxevents[counter]; ++i) {
    if (c.info.list_events[counter][i].event_id == id)
      return c.info.list_events[counter][i].short_name;
  }
  return nullptr;
}

bool IsNumber(const std::string &s) {
  if (s.empty()) return false;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
  }
  return true;
}

pm_prog_t EmptyProgram() {
  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  for (int &event : prog.events) event = COUNT_NOTHING;
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT;
  return prog;
}

// The group named `name` (its short name or its number), or null.
const pm_groups_t *FindGroup(const Catalog &c, const std::string &name) {
  for (int g = 0; g < c.groups.maxgroups; ++g) {
    const pm_groups_t &group = c.groups.event_groups[g];
    if (!group.short_name[0]) continue;  // a gap below a pinned id: no group
    bool match = IsNumber(name) ? atol(name.c_str()) == group.group_id
                                : strcmp(group.short_name, name.c_str()) == 0;
    if (match) return &group;
  }
  return nullptr;
}

// The public lists name an event on every counter: the members on 0..n-1,
// then a filler repeated on the free counters. A group names no event twice,
// so counting each name once counts the members (and, in a group that lacks
// the filler event, that event once more: a real count). The events are
// programmed one by one, so every column is counted.
void ProgramGroup(const Catalog &c, const pm_groups_t &group, EventSet *out) {
  out->prog = EmptyProgram();
  out->names.clear();
  for (int k = 0; k < MAX_COUNTERS && group.events[k] != COUNT_NOTHING; ++k) {
    const char *member = EventName(c, k, group.events[k]);
    if (!member) break;
    bool seen = false;
    for (const std::string &earlier : out->names) seen = seen || earlier == member;
    if (seen) break;
    out->prog.events[k] = group.events[k];
    out->names.push_back(member);
  }
  out->description =
      "group " + std::string(group.short_name) + " (" + std::to_string(group.group_id) + ")";
  out->group_id = group.group_id;
}

// Why `group` cannot be one name of a list: libhpm counts a group on counters 0..n-1 with its
// formulas, or a list of events, one a counter; the message names the group's events.
std::string GroupInList(const Catalog &c, const pm_groups_t &group, const std::string &name) {
  EventSet members;
  ProgramGroup(c, group, &members);
  std::string list;
  for (const std::string &member : members.names) list += (list.empty() ? "" : ",") + member;
  std::string which =
      name == group.short_name ? "a group" : std::string("the group ") + group.short_name;
  return "'" + name + "' is " + which +
         ", and a group cannot be combined with other events; name the group alone or list " +
         "its events (" + list + ")";
}

// Resolves one request into `out` (program and names); on failure `why` says
// what is wrong with it.
bool Resolve(const Catalog &c, const std::string &request, EventSet *out, std::string *why) {
  std::vector<std::string> names = SplitNames(request);
  if (names.empty()) {
    *why = "names no event or group";
    return false;
  }
  if (names.size() == 1) {
    const std::string &name = names[0];
    if (const pm_groups_t *group = FindGroup(c, name)) {
      ProgramGroup(c, *group, out);
      return true;
    }
    if (IsNumber(name)) {
      *why = "no group has the number " + name;
      return false;
    }
  }
  if (names.size() > MAX_COUNTERS) {
    *why = "names " + std::to_string(names.size()) + " events; at most " +
           std::to_string(MAX_COUNTERS) + " are counted at once";
    return false;
  }
  pm_prog_t prog = EmptyProgram();
  bool used[MAX_COUNTERS] = {};
  std::string description = "events ";
  for (size_t k = 0; k < names.size(); ++k) {
    int placed = -1;
    for (int counter = 0; counter < c.info.maxpmcs && placed < 0; ++counter) {
      if (used[counter]) continue;
      for (int i = 0; i < c.info.maxevents[counter]; ++i) {
        if (names[k] == c.info.list_events[counter][i].short_name) {
          prog.events[counter] = c.info.list_events[counter][i].event_id;
          used[counter] = true;
          placed = counter;
          break;
        }
      }
    }
    if (placed < 0) {
      const pm_groups_t *group = FindGroup(c, names[k]);
      *why = group ? GroupInList(c, *group, names[k])
                   : "'" + names[k] +
                         "' is no group or event of this machine's catalog (pmlist lists them)";
      return false;
    }
    if (static_cast<int>(k) != placed) {
      *why = "'" + names[k] + "' cannot be counted on counter " + std::to_string(k);
      return false;
    }
    description += (k ? "," : "") + names[k];
  }
  out->prog = prog;
  out->names = names;
  out->description = description;
  out->group_id = -1;
  return true;
}

bool Program(EventSet *set, std::string *why) {
  int rc = pm_set_program_mythread(&set->prog);
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
  const Catalog &c = LoadCatalog();
  if (!c.ok) return false;
  std::string source, refused;
  std::string request = Request(&source, &refused);
  if (!refused.empty()) {
    fprintf(stderr, "libhpm: %s; counting the defaults instead\n", refused.c_str());
  } else if (!request.empty() || !source.empty()) {
    std::string why;
    if (Resolve(c, request, out, &why) && Program(out, &why)) {
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
    if (Resolve(c, fallback, out, &why) && Program(out, &why)) {
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
