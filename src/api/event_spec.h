/* SPDX-License-Identifier: MIT */
// An event spec, before any catalog is asked: the list split into events, and each event's
// privilege modifiers (":u", ":k", "/u") separated from its name. Pure, so it can be fuzzed.
#pragma once

#include <string>
#include <vector>

namespace pmapi {

struct EventSpec {
  std::string text;  // as written: "cycles:u", "syscalls:sys_enter_write"
  std::string name;  // without the privilege modifiers: "cycles"
  // Whether the text chose a mode, and which. Without a choice the command line's -u/-k apply.
  bool has_mode = false;
  bool user = false;
  bool kernel = false;
  bool hypervisor = false;  // ":h"; with ":u=0" or ":k=0" alone, true
};

// Splits one list at commas (a comma inside a perf-style "pmu/term,term/" list does not
// split) and parses each event. Returns "" or what is wrong, naming the event.
std::string ParseEventList(const std::string &list, std::vector<EventSpec> *specs);

// Parses one event. Trailing ":"-separated privilege modifiers are taken off the name:
// perf's letters ("u", "k", "h" and combinations: "uk", "kh") and libpfm4's "u=0|1", "k=0|1",
// "h=0|1"; "pmu/event/u" takes them after the closing slash. Letters alone select exactly
// those levels; "=0" only removes one.
std::string ParseEventSpec(const std::string &text, EventSpec *spec);

// The name in the forms the catalog may hold it: "pmu/event/" becomes "pmu/event" (perf
// writes sysfs events with a closing slash; the catalog without).
std::string CatalogSpelling(const std::string &name);

// libpfm4's "[pmu::]EVENT[:ATTRIBUTE...]" split into "[pmu::]EVENT" and the attributes, or
// false when `name` does not have that shape (a tracepoint "subsystem:event" does: whether it
// is one is the catalog's business).
bool SplitPfmAttributes(const std::string &name, std::string *event,
                        std::vector<std::string> *attributes);

}  // namespace pmapi
