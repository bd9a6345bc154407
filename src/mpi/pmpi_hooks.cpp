// SPDX-License-Identifier: MIT
// The PMPI entry points: MPI_Init and MPI_Init_thread start the rank's counting once MPI is
// up; MPI_Finalize reads, reduces over MPI_COMM_WORLD and reports before MPI goes down. The
// library never aborts the job: a rank that cannot count says why once and takes part in the
// reduction marked not counted. No C++ exception leaves these functions.
#include <mpi.h>
#include <pmapi_settings.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>

#include "cross_rank_summary.h"
#include "pmapi_mpi.h"
#include "rank_counters.h"
#include "reduction.h"
#include "regions.h"

namespace pmapi_mpi {
namespace {

struct State {
  RankCounters counters;
  Regions regions{&counters};
  bool started = false;
  int rank = 0;
  double start_s = 0;
  double init_ms = 0;  // OnInit's own time
};

State &TheState() {
  static State *state = new State;  // never destroyed: regions may end during exit
  return *state;
}

// PMAPI_MPI_EVENTS and PMAPI_MPI_OUTPUT are libpmapi settings (include/pmapi_settings.h): the
// environment's, read once, unless the program set them with pm_set_setting before MPI_Init.
const char *Setting(const char *name) {
  const char *value = "";
  return pm_get_setting(name, &value) == 0 ? value : "";
}

void OnInit() {
  const double entered_s = MonotonicSeconds();
  State &state = TheState();
  if (state.started) return;
  state.started = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &state.rank);
  state.counters.Start(Setting("PMAPI_MPI_EVENTS"));
  if (!state.counters.counting()) {
    fprintf(stderr, "pmapi-mpi: rank %d: %s; this rank's events are marked not counted\n",
            state.rank, state.counters.why().c_str());
  }
  state.start_s = MonotonicSeconds();
  state.init_ms = (state.start_s - entered_s) * 1e3;
}

// The output format from PMAPI_MPI_OUTPUT's extension: .csv, otherwise JSON.
bool EndsWith(const std::string &text, const std::string &tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

void OnFinalize() {
  State &state = TheState();
  if (!state.started) return;
  state.started = false;
  const double entered_s = MonotonicSeconds();
  RankReport mine;
  mine.wall_s = MonotonicSeconds() - state.start_s;
  // Nothing here may keep this rank from the collective in Reduce (the others would wait for
  // it forever): what cannot be gathered is left out, the rank marked not counted. The read
  // comes first: the reduction's own work is not part of the counts.
  try {
    mine.counted = state.counters.Read(&mine.values);
    mine.events = state.counters.events();
    mine.regions = state.regions.Totals();
  } catch (...) {
    mine.counted = false;
    mine.events.clear();
    mine.regions.clear();
  }
  state.counters.Stop();
  mine.library_ms = state.init_ms + (MonotonicSeconds() - entered_s) * 1e3;

  std::vector<EventSet> sets;
  const int collectives = Reduce(mine, &sets);
  if (state.rank != 0) return;
  const std::string banner = FormatBanner(sets, "PMAPI-MPI");
  fputs(banner.c_str(), stdout);
  fflush(stdout);
  const std::string path = Setting("PMAPI_MPI_OUTPUT");
  if (path.empty()) return;
  const std::string text = EndsWith(path, ".csv") ? FormatCsv(sets) : FormatJson(sets, collectives);
  const std::string error = WriteAtomically(path, text);
  if (!error.empty()) fprintf(stderr, "pmapi-mpi: PMAPI_MPI_OUTPUT: %s\n", error.c_str());
}

template <typename F>
void Guarded(const char *where, F f) {
  try {
    f();
  } catch (const std::exception &e) {
    fprintf(stderr, "pmapi-mpi: %s: %s; counting abandoned on this rank\n", where, e.what());
  } catch (...) {
    fprintf(stderr, "pmapi-mpi: %s: unexpected error; counting abandoned on this rank\n", where);
  }
}

}  // namespace
}  // namespace pmapi_mpi

extern "C" {

int MPI_Init(int *argc, char ***argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) pmapi_mpi::Guarded("MPI_Init", pmapi_mpi::OnInit);
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) pmapi_mpi::Guarded("MPI_Init_thread", pmapi_mpi::OnInit);
  return rc;
}

int MPI_Finalize(void) {
  pmapi_mpi::Guarded("MPI_Finalize", pmapi_mpi::OnFinalize);
  return PMPI_Finalize();
}

__attribute__((visibility("default"))) int pm_mpi_region_begin(const char *name) {
  try {
    return pmapi_mpi::TheState().regions.Begin(name);
  } catch (...) {
    return -1;
  }
}

__attribute__((visibility("default"))) int pm_mpi_region_end(const char *name) {
  try {
    return pmapi_mpi::TheState().regions.End(name);
  } catch (...) {
    return -1;
  }
}

}  // extern "C"
