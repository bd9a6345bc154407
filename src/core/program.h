/* SPDX-License-Identifier: MIT */
// What a pm_set_program* call asked for, validated and translated: the
// events per counter with their perf_event_attr (mode bits applied), and the
// AIX mode word to hand back from pm_get_program*. Knows nothing of targets.
#pragma once

#include <linux/perf_event.h>

#include <memory>
#include <string>
#include <vector>

#include "base/engine_export.h"
#include "base/status.h"
#include "pmapi.h"

namespace pmapi {

struct ProgrammedEvent {
  // Index into pm_data_t.accu; kLibraryCounter for an event the library adds
  // for itself, which no client sees.
  int counter = 0;
  int event_id = 0;  // the id the client gave
  std::string name;  // short name, for messages
  perf_event_attr attr{};
};

constexpr int kLibraryCounter = -1;

struct MultiplexSpec;  // core/multiplexer.h

class Program {
 public:
  // A program of the AIX API, its ids already resolved at the API edge (src/api/aix_program):
  // `mode` and `events_as_set` as the client set them (what pm_get_program* hands back),
  // `events` with their attrs, the mode's privilege levels applied.
  static Program FromResolvedAix(const pm_mode_t &mode, const int (&events_as_set)[MAX_COUNTERS],
                                 std::vector<ProgrammedEvent> events);

  // A program of one event its caller already encoded (a front end other than the AIX API:
  // compat/netbsd), on counter 0, with no AIX mode. `attr` is opened as given, but for the
  // bits CounterGroup sets per target and group (inherit, disabled, pinned, read_format).
  PMAPI_ENGINE_EXPORT static Program ForEncodedEvent(int event_id, const std::string &name,
                                                     const perf_event_attr &attr);

  // A program of events their caller already encoded (a counting session's group), each on
  // the counter of its position, with no AIX mode; opened as ForEncodedEvent's are.
  static Program ForEncodedEvents(const std::vector<ProgrammedEvent> &events);

  // The program as set, with mode.b.count telling whether counting is on.
  void ToAix(bool counting, pm_prog_t *out) const;

  // This program plus an event for the library's own use (counter
  // kLibraryCounter), placed last in the group.
  Program WithLibraryEvent(const std::string &name, const perf_event_attr &attr) const;

  const std::vector<ProgrammedEvent> &events() const { return events_; }
  const pm_mode_t &mode() const { return mode_; }
  bool inherit_to_new_threads() const { return !mode_.b.no_inherit; }
  bool proctree() const { return mode_.b.proctree; }
  bool process_level() const { return mode_.b.process; }

  // A multiplexed (_mx/_mm) program: this program is its first set and carries them all, so
  // that whoever copies it (a thread inheriting it, a counting group) gets every set.
  const std::shared_ptr<const MultiplexSpec> &multiplex() const { return multiplex_; }
  void set_multiplex(std::shared_ptr<const MultiplexSpec> spec) { multiplex_ = std::move(spec); }

 private:
  // This program plus `attr` on `counter`, placed last.
  Program WithEvent(int counter, int event_id, const std::string &name,
                    const perf_event_attr &attr) const;

  pm_mode_t mode_{};
  int events_as_set_[MAX_COUNTERS] = {};
  std::vector<ProgrammedEvent> events_;
  std::shared_ptr<const MultiplexSpec> multiplex_;
};

}  // namespace pmapi
