// SPDX-License-Identifier: MIT
#include "pprof_output.h"

#include <time.h>

#include <algorithm>
#include <map>
#include <memory>

#include "fuchsia_common/pprof_writer.h"
#include "fuchsia_common/symbolizer.h"
#include "lib/perfmon/reader.h"
#include "output_file.h"

namespace cpuperf {

std::string WritePprof(const std::string &path, const SessionSpec &spec,
                       const std::vector<SavedTrace> &traces,
                       const std::vector<perfmon_mapping_t> &mappings, size_t *samples) {
  // Each sample stands for `rate` events of its event: "events" weighs them.
  uint32_t period = 1;
  for (const EventSpec &event : spec.events) {
    if (event.flags & PERFMON_FLAG_COLLECT_PC) {
      period = event.rate;
      break;
    }
  }
  fuchsia_common::PprofWriter writer({{"samples", "count"}, {"events", "count"}},
                                     {"events", "count"}, period);
  writer.AddComment("cpuperf " + spec.config_name);
  // One address space per pid: the mappings recorded while it ran, else its live ones.
  std::map<int64_t, std::unique_ptr<fuchsia_common::Symbolizer>> spaces;
  auto space_of = [&](int64_t pid) -> fuchsia_common::Symbolizer & {
    auto &space = spaces[pid];
    if (!space) {
      space = std::make_unique<fuchsia_common::Symbolizer>();
      bool recorded = false;
      for (const perfmon_mapping_t &m : mappings) {
        if (m.pid != pid) continue;
        space->AddMapping({m.start, m.end, m.file_offset, m.path});
        recorded = true;
      }
      std::string ignored;
      if (!recorded) space->AddProcess(static_cast<pid_t>(pid), &ignored);
    }
    return *space;
  };
  int64_t first_time = -1, last_time = 0;
  for (const SavedTrace &trace : traces) {
    perfmon_reader_t reader;
    if (perfmon_reader_init(&reader, trace.bytes.data(), trace.bytes.size()) != ZX_OK) continue;
    perfmon_record_t r;
    while (perfmon_reader_next(&reader, &r) == ZX_OK) {
      if (r.type == PERFMON_RECORD_TIME) {  // the profile spans every buffer's records
        int64_t time = static_cast<int64_t>(r.time);
        first_time = first_time < 0 ? time : std::min(first_time, time);
        last_time = std::max(last_time, time);
      }
      if (r.type != PERFMON_RECORD_PC) continue;
      int64_t rate = 1;
      std::string name;
      for (const EventSpec &event : spec.events) {
        if (event.id == r.event) {
          rate = event.rate;
          name = event.FullName();
        }
      }
      int64_t pid = static_cast<int64_t>(r.aspace);
      uint64_t leaf = writer.LocationFor(space_of(pid), r.value, false);
      uint64_t root = writer.SyntheticLocation("pid " + std::to_string(pid));
      writer.AddSample({leaf, root}, {1, rate},
                       {{"event", name, 0, ""},
                        {"cpu", "", static_cast<int64_t>(trace.trace), ""},
                        {"pid", "", pid, ""}});
    }
  }
  if (first_time >= 0) {
    // TIME records are CLOCK_MONOTONIC; pprof wants the wall-clock start.
    timespec wall, mono;
    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    int64_t offset = (wall.tv_sec - mono.tv_sec) * 1000000000ll + (wall.tv_nsec - mono.tv_nsec);
    writer.SetTimes(first_time + offset, last_time - first_time);
  }
  *samples = writer.sample_count();
  std::string error, compressed;
  if (!fuchsia_common::Gzip(writer.Serialize(), &compressed, &error)) return path + ": " + error;
  return tools::WriteOutputFile(path, compressed.data(), compressed.size());
}

}  // namespace cpuperf
