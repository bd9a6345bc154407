// SPDX-License-Identifier: MIT
#include "rank_counters.h"

#include <pmapi.h>
#include <pmapi_select.h>
#include <pmapi_settings.h>
#include <stdlib.h>
#include <string.h>

namespace pmapi_mpi {
namespace {

std::string PmError(const char *where, int rc) {
  char *text = pm_strerror(where, rc);
  std::string message = text ? text : std::string(where) + ": error " + std::to_string(rc);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.pop_back();
  }
  return message;
}

}  // namespace

std::string RankCounters::Program(const std::string &spec) {
  pm_info2_t info;
  pm_groups_info_t groups;
  memset(&info, 0, sizeof info);
  memset(&groups, 0, sizeof groups);
  int rc = pm_initialize(PM_VERIFIED | PM_UNVERIFIED | PM_CAVEAT | PM_GET_GROUPS, &info, &groups,
                         PM_CURRENT);
  if (rc != 0) return PmError("pm_initialize", rc);

  // "" is the machine's default set, as pmcount chooses it; blanks around names are dropped.
  pm_selection_t chosen;
  if (pm_select_events(spec.c_str(), PM_SELECT_BLANKS, &chosen) != 0) {
    if (chosen.refusal == PM_SELECT_UNKNOWN_EVENT) {
      return "unknown event '" + std::string(chosen.refused) + "' in PMAPI_MPI_EVENTS (neither " +
             "an event nor a group of this machine; pmlist lists them)";
    }
    return "PMAPI_MPI_EVENTS='" + spec + "': " + chosen.why;
  }
  for (int e = 0; e < chosen.nevents; ++e) events_.push_back(chosen.events[e].name);
  pm_prog_t prog = chosen.prog;
  // The group's member count (ginfo.members) is never read here, and keeping it costs a
  // sched_process_fork tracepoint whose first enabling patches kernel text on every CPU: spare
  // it, as pmcount does (docs/counting.md). An option of this program alone: the MPI program's
  // own pm_set_program* calls keep their counter.
  prog.mode.w |= PM_PROCESS | PM_NO_FORK_COUNTER;
  rc = pm_set_program_mygroup(&prog);
  if (rc != 0) return PmError("pm_set_program_mygroup", rc);
  return "";
}

void RankCounters::Start(const std::string &spec) {
  events_.clear();
  why_ = Program(spec);
  counting_ = why_.empty();
}

bool RankCounters::Read(std::vector<long long> *values) const {
  if (!counting_) return false;
  pm_data_t data;
  memset(&data, 0, sizeof data);
  if (pm_get_data_mygroup(&data) != 0) return false;
  values->assign(data.accu, data.accu + events_.size());
  return true;
}

void RankCounters::Stop() {
  if (counting_) pm_delete_program_mygroup();
  counting_ = false;
}

}  // namespace pmapi_mpi
