// SPDX-License-Identifier: MIT
#include "api/multiplex_ops.h"

#include <stdlib.h>
#include <string.h>

#include <memory>
#include <mutex>
#include <new>
#include <utility>

#include "api/aix_program.h"
#include "api/context_ops.h"
#include "api/timebase.h"
#include "base/last_error.h"
#include "core/multiplexer.h"

namespace pmapi {
namespace {

Status CheckShape(int sets, const void *array, int slice_ms, const char *count_name,
                  const char *array_name) {
  if (sets <= 0) {
    return Status(Pmapi_InvalidArg, std::string(count_name) + " is " + std::to_string(sets) +
                                        ": a multiplexed program needs at least one set");
  }
  if (sets > kMaxMultiplexSets) {
    return Status(Pmapi_InvalidArg, std::string(count_name) + " is " + std::to_string(sets) +
                                        "; at most " + std::to_string(kMaxMultiplexSets) +
                                        " event sets can be multiplexed");
  }
  if (!array) return Status(Pmapi_InvalidArg, {array_name, " is NULL"});
  if (slice_ms < 0) {
    return Status(Pmapi_InvalidArg, "slice_duration is " + std::to_string(slice_ms) +
                                        " ms; give a positive slice, or 0 for the default (" +
                                        std::to_string(kDefaultSliceMs) + " ms)");
  }
  return Status::Ok();
}

// Builds the carrier from validated sets.
Status Carrier(std::shared_ptr<MultiplexSpec> spec, Program *out) {
  Program carrier = spec->sets[0];
  carrier.set_multiplex(std::move(spec));
  *out = std::move(carrier);
  return Status::Ok();
}

Status SetFailed(int k, int sets, const Status &status) {
  if (sets == 1) return status;
  return Status(status.code(), "event set " + std::to_string(k) + ": " + status.detail_text());
}

void FillAccu(const Program &set, const GroupReading &totals, int group_count, pm_accu_mx_t *accu) {
  memset(accu, 0, sizeof *accu);
  const std::vector<ProgrammedEvent> &events = set.events();
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].counter == kLibraryCounter) continue;
    accu->accu_data[events[i].counter] = static_cast<long long>(totals.values[i]);
  }
  // The time the set actually counted, by the kernel: per target (summed over several, it
  // would be CPUs x time), so that accu_data * total / accu_time estimates the whole run.
  const uint64_t running = group_count > 0 ? totals.time_running / group_count : 0;
  TicksToTimebase(running, &accu->accu_time);
  TicksToTimebase(running, &accu->accu_purr);
  TicksToTimebase(running, &accu->accu_spurr);
}

// Reads every set of `mx` into a freshly allocated accu_set.
int FillSets(const Multiplexer &mx, int group_index, pm_data_mx_t *data) {
  const int n = mx.set_count();
  // Room for the sets' readings: on the stack for a few sets (zeroing room for all 64 cost a
  // tenth of a 2-set read), from the heap beyond.
  constexpr int kFewSets = 4;
  GroupReading few[kFewSets];
  std::unique_ptr<GroupReading[]> many;
  GroupReading *totals = few;
  if (n > kFewSets) {
    many.reset(new (std::nothrow) GroupReading[static_cast<size_t>(n)]);
    if (!many) return Report(Pmapi_Malloc_Err, "out of memory: cannot read the event sets");
    totals = many.get();
  }
  int rounds = 0;
  Status status = mx.ReadSets(group_index, totals, &rounds);
  if (!status.ok()) return Report(status);
  auto *sets = static_cast<pm_accu_mx_t *>(malloc(static_cast<size_t>(n) * sizeof(pm_accu_mx_t)));
  if (!sets) return Report(Pmapi_Malloc_Err, "out of memory: cannot allocate accu_set");
  const int groups = group_index < 0 ? mx.group_count() : 1;
  for (int k = 0; k < n; ++k) FillAccu(mx.spec().sets[k], totals[k], groups, &sets[k]);
  data->nb_accu_mx = n;
  data->nb_mx_round = rounds;
  data->accu_set = sets;
  return 0;
}

int NotMultiplexed() {
  return Report(Pmapi_NoSetProg,
                "no _mx/_mm program is set: the context holds a plain program (read it with "
                "pm_get_data*)");
}

}  // namespace

Status ProgramFromMx(const pm_prog_mx_t *prog, Program *out) {
  if (!prog) return Status(Pmapi_InvalidArg, "prog is NULL");
  Status status = CheckShape(prog->nb_events_prog, prog->events_set, prog->slice_duration,
                             "nb_events_prog", "events_set");
  if (!status.ok()) return status;
  auto spec = std::make_shared<MultiplexSpec>();
  spec->slice_ms = prog->slice_duration ? prog->slice_duration : kDefaultSliceMs;
  spec->sets.resize(static_cast<size_t>(prog->nb_events_prog));
  for (int k = 0; k < prog->nb_events_prog; ++k) {
    pm_prog_t set;
    memset(&set, 0, sizeof set);
    set.mode = prog->mode;
    memcpy(set.events, prog->events_set[k], sizeof set.events);
    status = ProgramFromAix(set, &spec->sets[k]);
    if (!status.ok()) return SetFailed(k, prog->nb_events_prog, status);
  }
  return Carrier(std::move(spec), out);
}

Status ProgramFromMm(const pm_prog_mm_t *prog, Program *out) {
  if (!prog) return Status(Pmapi_InvalidArg, "prog is NULL");
  Status status = CheckShape(prog->nb_set_prog, prog->prog_set, prog->slice_duration, "nb_set_prog",
                             "prog_set");
  if (!status.ok()) return status;
  auto spec = std::make_shared<MultiplexSpec>();
  spec->multi_mode = true;
  spec->slice_ms = prog->slice_duration ? prog->slice_duration : kDefaultSliceMs;
  spec->sets.resize(static_cast<size_t>(prog->nb_set_prog));
  const pm_mode_t first = prog->prog_set[0].mode;
  for (int k = 0; k < prog->nb_set_prog; ++k) {
    pm_prog_t set = prog->prog_set[k];
    // proctree and count belong to the whole program: the first set's (AIX).
    set.mode.b.proctree = first.b.proctree;
    set.mode.b.count = first.b.count;
    status = ProgramFromAix(set, &spec->sets[k]);
    if (!status.ok()) return SetFailed(k, prog->nb_set_prog, status);
  }
  return Carrier(std::move(spec), out);
}

int GetProgramMx(const Program &program, bool counting, pm_prog_mx_t *prog) {
  if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
  const MultiplexSpec *spec = program.multiplex().get();
  if (!spec) return NotMultiplexed();
  if (spec->multi_mode) {
    return Report(Pmapi_InvalidArg,
                  "the program was set with an _mm call (one mode per set): get it with "
                  "pm_get_program*_mm");
  }
  const size_t n = spec->sets.size();
  auto *sets = static_cast<pm_events_prog_t *>(calloc(n, sizeof(pm_events_prog_t)));
  if (!sets) return Report(Pmapi_Malloc_Err, "out of memory: cannot allocate events_set");
  pm_prog_t one;
  for (size_t k = 0; k < n; ++k) {
    spec->sets[k].ToAix(counting, &one);
    memcpy(sets[k], one.events, sizeof sets[k]);
  }
  memset(prog, 0, sizeof *prog);
  spec->sets[0].ToAix(counting, &one);
  prog->mode = one.mode;
  prog->slice_duration = spec->slice_ms;
  prog->nb_events_prog = static_cast<int>(n);
  prog->events_set = sets;
  return 0;
}

int GetProgramMm(const Program &program, bool counting, pm_prog_mm_t *prog) {
  if (!prog) return Report(Pmapi_InvalidArg, "prog is NULL");
  const MultiplexSpec *spec = program.multiplex().get();
  if (!spec) return NotMultiplexed();
  const size_t n = spec->sets.size();
  auto *sets = static_cast<pm_prog_t *>(calloc(n, sizeof(pm_prog_t)));
  if (!sets) return Report(Pmapi_Malloc_Err, "out of memory: cannot allocate prog_set");
  for (size_t k = 0; k < n; ++k) spec->sets[k].ToAix(counting, &sets[k]);
  memset(prog, 0, sizeof *prog);
  prog->slice_duration = spec->slice_ms;
  prog->nb_set_prog = static_cast<int>(n);
  prog->prog_set = sets;
  return 0;
}

int ReadContextMx(const Context *context, int group_index, pm_data_mx_t *data,
                  timebasestruct_t *stamp) {
  if (!data) return Report(Pmapi_InvalidArg, "data is NULL");
  const Multiplexer *mx = context->multiplexer();
  if (!mx) return NotMultiplexed();
  memset(data, 0, sizeof *data);
  int rc = FillSets(*mx, group_index, data);
  if (rc == 0 && stamp) StampNow(stamp);
  return rc;
}

int ReadGroupMx(CountingGroup *group, pm_data_mx_t *data, timebasestruct_t *stamp) {
  if (!data) return Report(Pmapi_InvalidArg, "data is NULL");
  if (!group->program().multiplex()) return NotMultiplexed();
  // ginfo as the plain group read computes it (members from the sets' fork counters).
  CounterValues plain;
  GroupMembership membership;
  Status status = group->Read(&plain, &membership, nullptr);
  if (!status.ok() && status.code() != Pmapi_Multiplexed) return Report(status);
  memset(data, 0, sizeof *data);
  data->ginfo = GroupInfo(membership);
  int rc = 0;
  {
    std::lock_guard<std::mutex> lock(group->mutex());
    const Context *roots = group->roots();
    if (group->revoked() || !roots || !roots->multiplexer()) {
      return Report(Pmapi_NoSetProg, "the counting group was deleted");
    }
    rc = FillSets(*roots->multiplexer(), -1, data);
  }
  if (rc == 0 && stamp) StampNow(stamp);
  return rc;
}

}  // namespace pmapi
