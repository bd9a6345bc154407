// SPDX-License-Identifier: MIT
// The C calls pmapi's with-block, its whole life and a read make, looped in C in this
// process: tests/bench/python_bench.py times them beside the same steps made from Python, on
// the same descriptors, to show what the Python layer adds.
#include "bench_calls.h"

#include "errors.h"
#include "library.h"

#include <pmapi_session.h>

#include <time.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace pmapi_python {
namespace {

double NowNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

// What pmapi.count(events) and its with-block call, in their order; without the block when
// `open` is false (a session made and destroyed).
void Life(const char *events, std::vector<pm_session_count_t> &counts, bool open) {
  pm_session_t *s = nullptr;
  int n = 0;
  Check(pm_session_create(0, &s), "pm_session_create");
  pm_session_add_events(s, events, &n);
  counts.resize(size_t(n));
  if (open) {
    pm_session_start(s);
    pm_session_stop(s);
    pm_session_read(s, counts.data(), n);
  }
  pm_session_destroy(s);
}

// ns per iteration of `mode` over `iterations`: "enter_exit" (start, stop, read of a session
// made here), "read" (a read while counting), "life" (create to destroy) or "made" (create,
// add the events, destroy: no open).
double Loop(const std::string &mode, const std::string &events, int iterations) {
  EnsureInitialized();
  if (iterations < 1) throw py::value_error("iterations must be positive");
  if (mode == "life" || mode == "made") {
    // Nothing else made here: called from Python for one iteration, this is one life alone.
    std::vector<pm_session_count_t> counts;
    double start = NowNs();
    for (int i = 0; i < iterations; ++i) Life(events.c_str(), counts, mode == "life");
    return (NowNs() - start) / iterations;
  }
  if (mode != "enter_exit" && mode != "read")
    throw py::value_error("mode must be \"enter_exit\", \"read\", \"life\" or \"made\"");
  std::vector<pm_session_count_t> counts(512);
  pm_session_t *s = nullptr;
  int n = 0;
  Check(pm_session_create(0, &s), "pm_session_create");
  int rc = pm_session_add_events(s, events.c_str(), nullptr);
  if (rc == 0) rc = pm_session_nevents(s, &n);
  if (rc == 0 && mode == "read") rc = pm_session_start(s);
  if (rc != 0 || n > int(counts.size())) {
    pm_session_destroy(s);
    Check(rc ? rc : Pmapi_InvalidArg, "bench");
  }
  double start = NowNs();
  for (int i = 0; i < iterations; ++i) {
    if (mode == "enter_exit") {
      pm_session_start(s);
      pm_session_stop(s);
      pm_session_read(s, counts.data(), n);
    } else {
      pm_session_read(s, counts.data(), n);
    }
  }
  double per = (NowNs() - start) / iterations;
  pm_session_destroy(s);
  return per;
}

}  // namespace

void BindBenchCalls(py::module_ &module) {
  module.def("_bench_c_calls", &Loop, py::arg("mode"), py::arg("events"), py::arg("iterations"));
}

}  // namespace pmapi_python
