// Event selection for libhpm: a request is a group name, a group number or a
// comma-separated list of catalog event names, looked up by name through
// pm_initialize so that catalog ids may change under us.
#include "event_set.h"
#include "metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fstream>
#include <sstream>

namespace hpm {
namespace {

constexpr const char *kEventsFile = "libHPMevents";
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
    for (int g = 0; g < c.groups.maxgroups; ++g) {
      const pm_groups_t &group = c.groups.event_groups[g];
      if (!group.short_name[0]) continue;  // a gap below a pinned id: no group
      bool match = IsNumber(name) ? atol(name.c_str()) == group.group_id
                                  : strcmp(group.short_name, name.c_str()) == 0;
      if (!match) continue;
      // The public lists name an event on every counter: the members on
      // 0..n-1, then a filler repeated on the free counters. A group names no
      // event twice, so counting each name once counts the members (and, in a
      // group that lacks the filler event, that event once more: a real count).
      // The events are programmed one by one, so every column is counted.
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
      *why =
          "'" + names[k] + "' is no group or event of this machine's catalog (pmlist lists them)";
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

// The requested set and where it came from; empty when nothing asks.
std::string Request(std::string *source) {
  const char *env = getenv("HPM_EVENT_SET");
  if (env && *env) {
    *source = "HPM_EVENT_SET";
    return env;
  }
  std::ifstream file(kEventsFile);
  if (file) {
    std::ostringstream text;
    std::string line;
    while (std::getline(file, line)) {
      size_t hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      text << line << '\n';
    }
    *source = kEventsFile;
    return Trim(text.str());
  }
  return "";
}

}  // namespace

bool ChooseAndProgram(EventSet *out) {
  const Catalog &c = LoadCatalog();
  if (!c.ok) return false;
  std::string source;
  std::string request = Request(&source);
  if (!request.empty() || !source.empty()) {
    std::string why;
    if (Resolve(c, request, out, &why) && Program(out, &why)) {
      out->source = source;
      AttachMetrics(out);
      return true;
    }
    fprintf(stderr, "libhpm: %s '%s': %s; counting the defaults instead\n", source.c_str(),
            request.c_str(), why.c_str());
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
