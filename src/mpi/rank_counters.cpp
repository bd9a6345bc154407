#include "rank_counters.h"

#include <pmapi.h>
#include <stdlib.h>
#include <string.h>

namespace pmapi_mpi {
namespace {

// The default set, as pmcount chooses: cycles and instructions when the machine has a PMU,
// the software basics otherwise (a VM without one).
constexpr const char *kHardwareDefaultGroup = "pm_basic";
constexpr const char *kSoftwareDefaultGroup = "pm_sw_basic";

// What a group lists on its free counters (docs/catalog.md, "Groups"): not a member.
constexpr const char *kGroupFiller = "cpu-migrations";

// A tracepoint name ("syscalls:sys_enter_getppid"): one colon, not libpfm4's "pmu::event".
bool IsTracepoint(const std::string &name) {
  const size_t colon = name.find(':');
  return colon != std::string::npos && colon > 0 && name.find("::") == std::string::npos &&
         name.find(':', colon + 1) == std::string::npos;
}

// The catalog's public name lookup: counter `counter`'s list of pm_initialize. Ids are never
// assumed: they are what the list says for this counter.
const pm_events2_t *FindOnCounter(const pm_info2_t &info, int counter, const std::string &name) {
  if (counter >= info.maxpmcs) return nullptr;
  for (int i = 0; i < info.maxevents[counter]; ++i) {
    const pm_events2_t &event = info.list_events[counter][i];
    if (event.short_name && name == event.short_name) return &event;
  }
  return nullptr;
}

const pm_groups_t *FindGroup(const pm_groups_info_t &groups, const std::string &name) {
  for (int g = 0; g < groups.maxgroups; ++g) {
    const pm_groups_t &group = groups.event_groups[g];
    if (group.short_name && name == group.short_name) return &group;
  }
  return nullptr;
}

// The names of `group`'s members, in counter order. Members sit on counters 0..n-1, the
// filler on the free ones after them: n is past the last counter that does not hold the
// filler (no shipped group ends with the filler).
std::vector<std::string> GroupMembers(const pm_info2_t &info, const pm_groups_t &group) {
  const pm_events2_t *filler = FindOnCounter(info, 0, kGroupFiller);
  int members = MAX_COUNTERS;
  while (members > 0 && (group.events[members - 1] == COUNT_NOTHING ||
                         (filler && group.events[members - 1] == filler->event_id))) {
    --members;
  }
  std::vector<std::string> names;
  for (int counter = 0; counter < members; ++counter) {
    const int id = group.events[counter];
    const pm_events2_t *member = nullptr;
    for (int i = 0; counter < info.maxpmcs && i < info.maxevents[counter]; ++i) {
      if (info.list_events[counter][i].event_id == id) member = &info.list_events[counter][i];
    }
    names.push_back(member ? member->short_name : "counter" + std::to_string(counter));
  }
  return names;
}

bool Countable(const pm_info2_t &info, const char *name) {
  const pm_events2_t *event = FindOnCounter(info, 0, name);
  return event && (event->status.b.verified || event->status.b.caveat);
}

std::vector<std::string> SplitNames(const std::string &spec) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    std::string name = spec.substr(start, end - start);
    const size_t first = name.find_first_not_of(" \t");
    const size_t last = name.find_last_not_of(" \t");
    names.push_back(first == std::string::npos ? "" : name.substr(first, last - first + 1));
    start = end + 1;
  }
  return names;
}

std::string PmError(const char *where, int rc) {
  char *text = pm_strerror(where, rc);
  std::string message = text ? text : std::string(where) + ": error " + std::to_string(rc);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  return message;
}

}  // namespace

std::string RankCounters::Program(const std::string &spec) {
  pm_info2_t info;
  pm_groups_info_t groups;
  memset(&info, 0, sizeof info);
  memset(&groups, 0, sizeof groups);
  // The lists hold the common tracepoints only; others are listed when PMAPI_LIST_TRACEPOINTS
  // names them (docs/catalog.md, "The bound"), which moves no other id. Set around this one
  // call, unless the user set it, so that every tracepoint named here can be found by name.
  std::string tracepoints;
  for (const std::string &name : SplitNames(spec)) {
    if (IsTracepoint(name)) tracepoints += (tracepoints.empty() ? "" : ",") + name;
  }
  const bool list_more = !tracepoints.empty() && getenv("PMAPI_LIST_TRACEPOINTS") == nullptr;
  if (list_more) setenv("PMAPI_LIST_TRACEPOINTS", tracepoints.c_str(), 0);
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                         PM_CURRENT);
  if (list_more) unsetenv("PMAPI_LIST_TRACEPOINTS");
  if (rc != 0) return PmError("pm_initialize", rc);

  pm_prog_t prog;
  memset(&prog, 0, sizeof prog);
  for (int &event : prog.events) event = COUNT_NOTHING;
  prog.mode.w = PM_USER | PM_KERNEL | PM_COUNT | PM_PROCESS;

  std::string group_name = spec;
  if (spec.empty()) {
    group_name = Countable(info, "PM_CYC") ? kHardwareDefaultGroup : kSoftwareDefaultGroup;
  }
  const pm_groups_t *group =
      group_name.find(',') == std::string::npos ? FindGroup(groups, group_name) : nullptr;
  if (group) {
    prog.mode.b.is_group = 1;
    prog.events[0] = group->group_id;
    events_ = GroupMembers(info, *group);
  } else if (spec.empty()) {
    return "the default group " + group_name + " is not defined on this machine";
  } else {
    const std::vector<std::string> names = SplitNames(spec);
    if (names.size() > MAX_COUNTERS) {
      return "PMAPI_MPI_EVENTS names " + std::to_string(names.size()) + " events; at most " +
             std::to_string(MAX_COUNTERS) + " count at once";
    }
    for (size_t counter = 0; counter < names.size(); ++counter) {
      const std::string &name = names[counter];
      if (name.empty()) return "PMAPI_MPI_EVENTS='" + spec + "' has an empty event name";
      const pm_events2_t *event = FindOnCounter(info, static_cast<int>(counter), name);
      if (!event && IsTracepoint(name) && !list_more && getenv("PMAPI_LIST_TRACEPOINTS")) {
        return "unknown event '" + name + "' in PMAPI_MPI_EVENTS (a tracepoint: the " +
               "PMAPI_LIST_TRACEPOINTS you set does not list it)";
      }
      const pm_groups_t *named_group = event ? nullptr : FindGroup(groups, name);
      if (named_group) {
        // A program is one group or a list of events (AIX's is_group), never both.
        std::string members;
        for (const std::string &member : GroupMembers(info, *named_group)) {
          members += (members.empty() ? "" : ",") + member;
        }
        return "PMAPI_MPI_EVENTS='" + spec + "': '" + name +
               "' is a group, and a group cannot be combined with other events; name the " +
               "group alone or list its events (" + members + ")";
      }
      if (!event) {
        return "unknown event '" + name + "' in PMAPI_MPI_EVENTS (neither an event nor a " +
               "group of this machine; pmlist lists them)";
      }
      prog.events[counter] = event->event_id;
      events_.push_back(name);
    }
  }
  // The group's member count (ginfo.members) is never read here, and keeping it costs a
  // sched_process_fork tracepoint whose first enabling patches kernel text on every CPU
  // (tens of ms in a VM): spare it, as pmcount does (docs/counting.md). Set around this one
  // call only, so that the program and its children see their environment unchanged.
  const bool had_variable = getenv("PMAPI_NO_FORK_COUNTER") != nullptr;
  if (!had_variable) setenv("PMAPI_NO_FORK_COUNTER", "1", 0);
  rc = pm_set_program_mygroup(&prog);
  if (!had_variable) unsetenv("PMAPI_NO_FORK_COUNTER");
  if (rc != 0) return PmError("pm_set_program_mygroup", rc);
  return "";
}

void RankCounters::Start(const std::string &spec) {
  events_.clear();
  why_ = Program(spec);
  counting_ = why_.empty();
}

bool RankCounters::Read(std::vector<long long> *values) const {
  if (!counting_) return false;
  pm_data_t data;
  memset(&data, 0, sizeof data);
  if (pm_get_data_mygroup(&data) != 0) return false;
  values->assign(data.accu, data.accu + events_.size());
  return true;
}

void RankCounters::Stop() {
  if (counting_) pm_delete_program_mygroup();
  counting_ = false;
}

}  // namespace pmapi_mpi
