// SPDX-License-Identifier: MIT
#include "event_patterns.h"

#include <dirent.h>
#include <pmapi.h>
#include <pmapi_catalog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <vector>

#include "event_list.h"
#include "text_format.h"

namespace pmcount {
namespace {

using tools::OrList;

// File descriptors kept free for what else pmcount opens: the output file, the command's
// pipe, the catalog cache, libraries that open files while counting.
constexpr size_t kSpareFds = 64;

// What a pattern matched; `events` receives the countable names.
struct Expansion {
  std::vector<std::string> events;
  size_t uncountable = 0;
  std::string first_uncountable, why_uncountable;
};

Expansion Expand(const std::string &pattern) {
  Expansion out;
  int count = 0;
  if (pm_catalog_match(pattern.c_str(), nullptr, 0, &count) != 0 || count == 0) return out;
  std::vector<pm_catalog_match_t> matches(static_cast<size_t>(count));
  if (pm_catalog_match(pattern.c_str(), matches.data(), count, &count) != 0) return out;
  for (const pm_catalog_match_t &match : matches) {
    if (match.countable) {
      out.events.push_back(match.name);
    } else if (out.uncountable++ == 0) {
      out.first_uncountable = match.name;
      out.why_uncountable = match.not_countable;
    }
  }
  return out;
}

std::string NothingMatches(const std::string &pattern) {
  pm_catalog_suggestions_t close{};
  if (pm_catalog_suggest(pattern.c_str(), 0, &close) == 0 && close.hidden[0]) {
    return "no event matches '" + pattern + "': " + close.hidden;
  }
  std::vector<std::string> names(close.suggestions, close.suggestions + close.nsuggestions);
  return "no event matches '" + pattern + "'" +
         (names.empty() ? "" : "; did you mean " + OrList(names) + "?") + " (pmlist '" + pattern +
         "' lists what a pattern matches)";
}

// "pattern 'a'", "patterns 'a', 'b'".
std::string Quoted(const std::vector<std::string> &patterns) {
  std::string text = patterns.size() == 1 ? "pattern '" : "patterns '";
  for (size_t i = 0; i < patterns.size(); ++i) text += (i ? "', '" : "") + patterns[i];
  return text + "'";
}

size_t OpenFds() {
  size_t count = 0;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (readdir(dir)) ++count;
    closedir(dir);
  }
  return count > 2 ? count - 2 : 0;  // "." and ".."
}

// The threads of process `pid` now (its /proc/PID/task entries); 1 if it cannot be read.
size_t ThreadsOf(int pid) {
  size_t count = 0;
  if (DIR *dir = opendir(("/proc/" + std::to_string(pid) + "/task").c_str())) {
    while (const dirent *entry = readdir(dir)) count += entry->d_name[0] != '.';
    closedir(dir);
  }
  return std::max<size_t>(1, count);
}

// How many file descriptors one event takes, as the counting session opens them: under -a one
// per CPU; otherwise one per thread counted (the command has one when it is programmed; a
// process given to -p, each of its threads). -T's programs take as many, plus one for each
// whole process's own counters.
size_t FdsPerEvent(const Options &options) {
  if (options.system_wide) {
    if (options.cpus_given) return options.cpus.size();
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<size_t>(online) : 1;
  }
  const bool programs = options.multiplex_ms > 0;
  if (!options.attached()) return programs ? 2 : 1;
  size_t fds = options.tids.size();
  for (int pid : options.pids) fds += ThreadsOf(pid) + (programs && !options.per_thread ? 1 : 0);
  return std::max<size_t>(1, fds);
}

// Where an event's descriptors go, for the message.
std::string Where(const Options &options) {
  if (options.system_wide) return "one on each CPU";
  if (options.multiplex_ms > 0) {
    return options.attached() ? "one on each thread, and one more for each whole process"
                              : "the command's counting group and its own counters";
  }
  return options.attached() ? "one on each thread" : "one on the command";
}

// Every event of every -e list, patterns expanded. `patterns` receives the patterns seen.
std::string ExpandLists(std::vector<std::string> *lists, std::vector<std::string> *patterns,
                        size_t *total) {
  std::set<std::string> listed;  // names given outright, so that a pattern does not repeat them
  for (const std::string &list : *lists) {
    std::vector<pm_event_spec_t> specs;
    if (!tools::SplitEventList(list, &specs).empty()) continue;
    for (const pm_event_spec_t &spec : specs) {
      if (!pm_catalog_is_pattern(spec.name)) listed.insert(spec.name);
    }
  }
  *total = 0;
  for (std::string &list : *lists) {
    std::vector<pm_event_spec_t> specs;
    // A list that does not parse is left to the selection, whose message names the event.
    if (!tools::SplitEventList(list, &specs).empty()) continue;
    std::string out;
    for (const pm_event_spec_t &spec : specs) {
      const std::string name = spec.name;
      if (!pm_catalog_is_pattern(spec.name)) {
        out += (out.empty() ? "" : ",") + std::string(spec.text);
        ++*total;
        continue;
      }
      const Expansion found = Expand(name);
      if (found.events.empty() && found.uncountable == 0) return NothingMatches(name);
      if (found.events.empty()) {
        return "'" + name + "' matches " + std::to_string(found.uncountable) +
               (found.uncountable == 1 ? " event" : " events") + ", none countable here (" +
               found.first_uncountable + ": " + found.why_uncountable + "); pmlist '" + name +
               "' lists them";
      }
      patterns->push_back(name);
      const std::string modifiers = tools::ModifiersOf(spec);
      for (const std::string &event : found.events) {
        if (!listed.insert(event).second) continue;
        out += (out.empty() ? "" : ",") + event + modifiers;
        ++*total;
      }
    }
    list = out;
  }
  return "";
}

}  // namespace

std::string ExpandEventPatterns(Options *options) {
  bool any = false;
  for (const std::string &list : options->event_lists) {
    any = any || pm_catalog_is_pattern(list.c_str());
  }
  if (!any) return "";
  std::vector<std::string> patterns;
  size_t total = 0;
  std::string error = ExpandLists(&options->event_lists, &patterns, &total);
  if (!error.empty()) return error;
  // A list whose pattern matched only events given before it is left empty: gone.
  options->event_lists.erase(
      std::remove(options->event_lists.begin(), options->event_lists.end(), std::string()),
      options->event_lists.end());
  const std::string which = Quoted(patterns);
  // -T: each -e list is a set of its own, which one program holds.
  if (options->multiplex_ms > 0) {
    size_t position = 0;
    for (SetArgument &set : options->sets) {
      ++position;
      if (set.is_group) continue;
      // Each set alone: an event may be in two sets.
      std::vector<std::string> one{set.text}, unused;
      size_t ignored = 0;
      error = ExpandLists(&one, &unused, &ignored);
      if (!error.empty()) return error;
      set.text = one[0];
      std::vector<pm_event_spec_t> specs;
      if (tools::SplitEventList(set.text, &specs).empty() && specs.size() > MAX_COUNTERS) {
        return "with -T, " + which + " puts " + std::to_string(specs.size()) +
               " events in event set " + std::to_string(position) + ", and a set holds at most " +
               std::to_string(MAX_COUNTERS) +
               ": narrow the pattern, or leave -T out (more events than counters take turns "
               "by themselves)";
      }
    }
  }
  // -T's sets are programs of MAX_COUNTERS events; the session takes any number.
  const size_t bound = static_cast<size_t>(kMaxMultiplexSets) * MAX_COUNTERS;
  if (options->multiplex_ms > 0 && total > bound) {
    return which + " makes " + std::to_string(total) + " events to count, and pmcount counts " +
           "at most " + std::to_string(bound) + " (" + std::to_string(kMaxMultiplexSets) +
           " sets of " + std::to_string(MAX_COUNTERS) +
           " taking turns): narrow the pattern (pmlist shows what it matches)";
  }
  // Every event's descriptors are open at once (-T: every set stays open while they take turns).
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const size_t per_event = FdsPerEvent(*options);
    const size_t needed = total * per_event;
    const size_t open = OpenFds() + kSpareFds;
    const size_t available = limit.rlim_cur > open ? limit.rlim_cur - open : 0;
    if (needed > available) {
      return which + " makes " + std::to_string(total) + " events to count" + ", which takes " +
             std::to_string(needed) + " file descriptors (" + std::to_string(per_event) +
             " for each event: " + Where(*options) + "), and this process may open " +
             std::to_string(available) + " more (ulimit -n is " + std::to_string(limit.rlim_cur) +
             "): narrow the pattern, or raise the limit (ulimit -n " +
             std::to_string(needed + open) + ")";
    }
  }
  return "";
}

}  // namespace pmcount
