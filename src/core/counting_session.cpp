// SPDX-License-Identifier: MIT
#include "core/counting_session.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "base/kernel.h"
#include "core/hardware_groups.h"

namespace pmapi {
namespace {

// Descriptors left for what else the process opens while the session is open: files, pipes,
// the catalog cache, libraries.
constexpr size_t kSpareDescriptors = 16;

// Since Linux 6.2 the size of /proc/self/fd is the number of open descriptors: one stat, where
// listing the directory costs a session's open several times more. Older kernels say 0 there.
size_t OpenDescriptors() {
  FileStat info;
  if (CurrentKernel().Stat("/proc/self/fd", &info) == 0 && info.size > 0) {
    return static_cast<size_t>(info.size);
  }
  std::vector<std::string> names;
  return CurrentKernel().ListDirectory("/proc/self/fd", &names) < 0 ? 0 : names.size();
}

uint64_t OpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return limit.rlim_cur;
}

// Why `needed` descriptors cannot be had, when they cannot; Ok otherwise. `failed` says
// whether an open already ran out.
Status DescriptorShortage(size_t needed, size_t events, size_t places, bool failed) {
  const uint64_t limit = OpenFileLimit();
  const size_t open = OpenDescriptors();
  if (!failed && (limit == 0 || needed + open + kSpareDescriptors <= limit)) return Status::Ok();
  // What to ask for: room for the session beside what is open, and more than the limit that
  // just ran out.
  uint64_t ask = needed + open + kSpareDescriptors;
  if (ask <= limit) ask = limit + needed;
  const std::string sentence =
      "the session needs " + std::to_string(needed) + " file descriptors (" +
      std::to_string(events) + (events == 1 ? " event on " : " events on ") +
      std::to_string(places) + (places == 1 ? " CPU or thread" : " CPUs or threads") +
      "), and this process " + (failed ? "ran out" : "may not open that many") +
      (limit ? " (ulimit -n is " + std::to_string(limit) + ")" : std::string()) +
      ": raise the limit (ulimit -n " + std::to_string(ask) + ") or count fewer events";
  return Status(Pmapi_TooManyFiles, sentence);
}

// `raw` * `enabled` / `running`, without overflow.
uint64_t Scale(uint64_t raw, uint64_t enabled, uint64_t running) {
  if (running == 0) return 0;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(raw) * enabled / running);
}

}  // namespace

Status CountingSession::Open(const std::vector<SessionEvent> &events,
                             const std::vector<SessionTarget> &targets) {
  if (open_) return Status::Ok();
  if (events.empty()) return Status(Pmapi_NoEvents, "the session has no events: add some first");
  std::vector<std::vector<size_t>> hardware;
  Status status = PackHardwareEvents(events, &hardware);
  if (!status.ok()) return status;

  std::vector<std::vector<SessionPlace>> places(targets.size());
  size_t nplaces = 0;
  for (size_t t = 0; t < targets.size(); ++t) {
    status = PlacesOf(targets[t], &places[t]);
    if (!status.ok()) return status;
    nplaces += places[t].size();
  }
  status = DescriptorShortage(nplaces * events.size(), events.size(), nplaces, false);
  if (!status.ok()) return status;

  status = OpenUnits(events, hardware, places);
  if (status.code() == Pmapi_TooManyFiles) {
    status = DescriptorShortage(nplaces * events.size(), events.size(), nplaces, true);
  }
  if (!status.ok()) {
    Close();
    return status;
  }
  group_of_.assign(events.size(), -1);
  for (size_t g = 0; g < hardware.size(); ++g) {
    for (size_t index : hardware[g]) group_of_[index] = static_cast<int>(g);
  }
  nevents_ = events.size();
  open_ = true;
  return Status::Ok();
}

Status CountingSession::OpenUnits(const std::vector<SessionEvent> &events,
                                  const std::vector<std::vector<size_t>> &hardware,
                                  const std::vector<std::vector<SessionPlace>> &places) {
  // Every group on the counters all the time when they all fit at once; else they take turns.
  const Placement placement =
      flexible_ || hardware.size() > 1 ? Placement::kRotated : Placement::kPinned;
  std::vector<std::pair<Program, std::vector<size_t>>> programs;
  for (const std::vector<size_t> &group : hardware) {
    programs.emplace_back(ProgramOf(events, group), group);
  }
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind == EventKind::kHardware) continue;
    programs.emplace_back(ProgramOf(events, {i}), std::vector<size_t>{i});
  }
  units_.reserve(units_.size() + programs.size() * places.size());
  for (size_t t = 0; t < places.size(); ++t) {
    for (const SessionPlace &place : places[t]) {
      const size_t first = units_.size();
      for (const auto &program : programs) {
        Unit unit;
        const bool hardware_group = events[program.second[0]].kind == EventKind::kHardware;
        Status status = unit.group.Open(program.first, place.target,
                                        hardware_group ? placement : Placement::kPinned);
        if (status.code() == Pmapi_NoSuchThread && place.target.may_vanish) {
          // The thread exited before its events opened: no longer a place.
          units_.resize(first);
          break;
        }
        if (!status.ok()) return status;
        unit.events = program.second;
        unit.target = static_cast<int>(t);
        unit.dense_cpu = place.dense_cpu;
        units_.push_back(std::move(unit));
      }
    }
  }
  return Status::Ok();
}

Status CountingSession::OpenProgram(const Program &program, const std::vector<GroupTarget> &places,
                                    std::vector<GroupTarget> *opened) {
  if (open_) return Status::Ok();
  const size_t nevents = program.events().size();
  std::vector<size_t> members(nevents);
  for (size_t i = 0; i < nevents; ++i) members[i] = i;
  units_.reserve(places.size());
  opened->clear();
  for (const GroupTarget &place : places) {
    Unit unit;
    Status status = unit.group.Open(program, place);
    if (status.code() == Pmapi_NoSuchThread && place.may_vanish) continue;
    // AIX refuses a program the counters cannot hold when it is set, not at the first read.
    if (status.ok()) status = unit.group.CheckSchedulable(program, place, &unit.baseline);
    if (!status.ok()) {
      Close();
      return status;
    }
    unit.events = members;
    unit.target = static_cast<int>(opened->size());
    units_.push_back(std::move(unit));
    opened->push_back(place);
  }
  nevents_ = nevents;
  open_ = true;
  return Status::Ok();
}

void CountingSession::ReleaseInChild() {
  for (Unit &unit : units_) {
    for (int fd : unit.group.Release()) close(fd);
  }
}

void CountingSession::Close() {
  units_.clear();
  group_of_.clear();
  nevents_ = 0;
  open_ = false;
}

Status CountingSession::Enable() const {
  if (!open_) return Status(Pmapi_NoSetProg, "the session is not open");
  for (const Unit &unit : units_) {
    Status status = unit.group.Enable();
    if (!status.ok()) {
      // Leave nothing counting while the caller is told counting failed.
      for (const Unit &other : units_) other.group.Disable();
      return status;
    }
  }
  return Status::Ok();
}

Status CountingSession::Disable() const {
  if (!open_) return Status(Pmapi_NoSetProg, "the session is not open");
  Status first;
  for (const Unit &unit : units_) {
    Status status = unit.group.Disable();
    if (first.ok() && !status.ok()) first = status;
  }
  return first;
}

Status CountingSession::Reset(uint64_t *moved, size_t n) {
  if (!open_) return Status(Pmapi_NoSetProg, "the session is not open");
  for (Unit &unit : units_) {
    Status status = unit.group.Read(&unit.pending);
    if (!status.ok()) return status;
  }
  for (Unit &unit : units_) {
    if (moved) {
      for (size_t m = 0; m < unit.events.size(); ++m) {
        if (unit.events[m] < n)
          moved[unit.events[m]] += unit.pending.values[m] - unit.baseline.values[m];
      }
    }
    unit.baseline = unit.pending;
  }
  return Status::Ok();
}

Status CountingSession::Read(int target, int cpu, SessionCount *counts, size_t n) const {
  if (!open_) return Status(Pmapi_NoSetProg, "the session is not open");
  if (n > nevents_) n = nevents_;
  for (size_t i = 0; i < n; ++i) counts[i] = SessionCount();
  for (const Unit &unit : units_) {
    if (target != kAny && unit.target != target) continue;
    if (cpu != kAny && unit.dense_cpu != cpu) continue;
    GroupReading reading(GroupReading::kToBeFilled);
    Status status = unit.group.Read(&reading);
    if (!status.ok()) return status;
    const uint64_t enabled = reading.time_enabled - unit.baseline.time_enabled;
    const uint64_t running = reading.time_running - unit.baseline.time_running;
    const bool scaled = running < enabled;
    for (size_t m = 0; m < unit.events.size(); ++m) {
      const size_t index = unit.events[m];
      if (index >= n) continue;
      const uint64_t raw = reading.values[m] - unit.baseline.values[m];
      SessionCount &count = counts[index];
      count.raw += raw;
      count.value += scaled ? Scale(raw, enabled, running) : raw;
      count.enabled += enabled;
      count.running += running;
      count.scaled = count.scaled || scaled;
    }
  }
  return Status::Ok();
}

bool CountingSession::CountsCpu(int cpu) const {
  for (const Unit &unit : units_) {
    if (unit.dense_cpu == cpu) return true;
  }
  return false;
}

int CountingSession::GroupOf(size_t index) const {
  return index < group_of_.size() ? group_of_[index] : -1;
}

size_t CountingSession::descriptors() const {
  size_t total = 0;
  for (const Unit &unit : units_) total += unit.events.size();
  return total;
}

}  // namespace pmapi
