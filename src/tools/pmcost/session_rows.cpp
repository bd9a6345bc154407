// SPDX-License-Identifier: MIT
#include "session_rows.h"

#include <pmapi.h>
#include <pmapi_session.h>

#include "sampling.h"

namespace {

// Eight of the kernel's software events, on every machine; the first alone for the 1-event row.
// User mode only, which any user may count (perf_event_paranoid 2): what a read or a start
// costs does not depend on the levels counted.
constexpr const char kEightEvents[] =
    "task-clock:u,page-faults:u,context-switches:u,cpu-migrations:u,minor-faults:u,"
    "major-faults:u,alignment-faults:u,emulation-faults:u";
constexpr const char kOneEvent[] = "task-clock:u";
constexpr int kMaxEvents = 8;

// A started session of `spec` on the calling thread, or null after printing `label` skipped.
pm_session_t *Started(const char *spec, const std::string &label, PrintSkippedFn skipped) {
  pm_session_t *session = nullptr;
  int rc = pm_session_create(0, &session);
  if (rc == 0) rc = pm_session_add_events(session, spec, nullptr);
  if (rc == 0) rc = pm_session_start(session);
  if (rc != 0) {
    skipped(label, pm_strerror("pm_session_start", rc));
    pm_session_destroy(session);
    return nullptr;
  }
  return session;
}

void MeasureRead(const char *spec, int events, long n, std::vector<double> *times, PrintRowFn row,
                 PrintSkippedFn skipped) {
  const std::string label =
      "pm_session_read (" + std::to_string(events) + " software event" + (events == 1 ? ")" : "s)");
  pm_session_t *session = Started(spec, label, skipped);
  if (!session) return;
  pm_session_count_t counts[kMaxEvents];
  row(label, Sample(times, n, [&] { pm_session_read(session, counts, events); }));
  pm_session_destroy(session);
}

}  // namespace

void MeasureSession(long n, std::vector<double> *times, PrintRowFn row, PrintSkippedFn skipped) {
  MeasureRead(kOneEvent, 1, n, times, row, skipped);
  MeasureRead(kEightEvents, kMaxEvents, n, times, row, skipped);
  const std::string label = "pm_session_start+pm_session_stop (8 software events)";
  pm_session_t *session = Started(kEightEvents, label, skipped);
  if (!session) return;
  row(label, Sample(times, n, [&] {
        pm_session_start(session);
        pm_session_stop(session);
      }));
  pm_session_destroy(session);
}
