// SPDX-License-Identifier: MIT
#include "multiplex_plan.h"

#include <string.h>

namespace tools {

Selection FlattenSets(const std::vector<Selection> &sets, std::vector<int> *set_of_event) {
  Selection flat;
  set_of_event->clear();
  for (size_t k = 0; k < sets.size(); ++k) {
    const size_t offset = flat.events.size();
    flat.events.insert(flat.events.end(), sets[k].events.begin(), sets[k].events.end());
    set_of_event->insert(set_of_event->end(), sets[k].events.size(), static_cast<int>(k));
    for (MetricDef metric : sets[k].metrics) {
      for (size_t &index : metric.events) index += offset;
      flat.metrics.push_back(metric);
    }
    for (const std::string &note : sets[k].notes) {
      flat.notes.push_back("event set " + std::to_string(k + 1) + ": " + note);
    }
  }
  return flat;
}

std::string MakeMultiplexPlan(const std::vector<Selection> &sets, const Mode &mode, long slice_ms,
                              MultiplexPlan *plan) {
  MultiplexPlan out;
  out.events.reset(new pm_events_prog_t[sets.size()]);
  for (size_t k = 0; k < sets.size(); ++k) {
    Selection plain = sets[k];
    plain.group = nullptr;  // one _mx mode for every set: members go on counters 0..n-1
    Plan set = MakePlan(plain, mode);
    if (set.empty()) {
      std::string why;
      for (size_t e = 0; e < set.reasons.size() && why.empty(); ++e) {
        why = plain.events[e].name + ": " + set.reasons[e];
      }
      return "event set " + std::to_string(k + 1) + " has nothing countable here (" + why + ")";
    }
    memcpy(out.events[k], set.prog.events, sizeof out.events[k]);
    out.counters.push_back(set.counter_of_event);
    for (size_t e = 0; e < set.ids.size(); ++e) {
      out.flat.ids.push_back(set.ids[e]);
      out.flat.counter_of_event.push_back(set.counter_of_event[e]);
      out.flat.reasons.push_back(set.reasons[e]);
      out.set_of_event.push_back(static_cast<int>(k));
    }
    if (k == 0) out.prog.mode = set.prog.mode;
    out.sets.push_back(std::move(set));
  }
  *plan = std::move(out);
  plan->prog.slice_duration = static_cast<int>(slice_ms);
  plan->prog.nb_events_prog = static_cast<int>(sets.size());
  plan->prog.events_set = plan->events.get();
  return "";
}

}  // namespace tools
