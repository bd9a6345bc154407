// SPDX-License-Identifier: MIT
// pmapi_session.h's C entry points: the handle holds the events and targets as added and the
// core's CountingSession; each call checks its arguments, translates (specs through the
// catalog, dense CPU ids through the system's numbering) and calls the core.
#include <string.h>

#include <new>
#include <string>
#include <vector>

#include "api/c_boundary.h"
#include "api/session_events.h"
#include "base/last_error.h"
#include "catalog/catalog.h"
#include "core/counting_session.h"
#include "core/system_context.h"

#pragma GCC visibility push(default)
#include "pmapi_session.h"
#pragma GCC visibility pop

struct pm_session {
  std::vector<pmapi::SessionEvent> events;
  std::vector<pmapi::SessionTarget> targets;
  pmapi::CountingSession counting;
  bool counting_on = false;
  // Sized at the open, so that no read allocates.
  std::vector<pmapi::SessionCount> sums;
};

using namespace pmapi;

namespace {

int NotWhileOpen(const pm_session_t *session, const char *what) {
  if (!session->counting.is_open()) return 0;
  return Report(Status(Pmapi_ProgExists, {"cannot add ", what,
                                          " to an open session: add everything before the open"}));
}

// The CPUs of `cpus[0..ncpus)` (dense ids; NULL and 0: every online one) into `target`.
int AddCpus(const int *cpus, int ncpus, SessionTarget *target) {
  if (ncpus < 0 || (ncpus > 0 && !cpus)) {
    return Report(Pmapi_InvalidArg, "cpus is NULL or ncpus is negative");
  }
  SystemContext &system = SystemContext::Get();
  const int count = system.CpuCount();
  std::vector<int> dense;
  if (ncpus == 0) {
    for (int cpu = 0; cpu < count; ++cpu) dense.push_back(cpu);
  } else {
    dense.assign(cpus, cpus + ncpus);
  }
  std::vector<bool> seen(static_cast<size_t>(count), false);
  for (int cpu : dense) {
    if (cpu < 0 || cpu >= count) {
      return Report(Pmapi_InvalidCpu, "CPU " + std::to_string(cpu) + " is not one of the " +
                                          std::to_string(count) + " online CPUs (dense ids 0.." +
                                          std::to_string(count - 1) + ")");
    }
    if (seen[static_cast<size_t>(cpu)]) {
      return Report(Pmapi_InvalidCpu, "CPU " + std::to_string(cpu) + " is listed twice");
    }
    seen[static_cast<size_t>(cpu)] = true;
    CpuInfo place;
    const int rc = Report(system.Place(cpu, &place));
    if (rc != 0) return rc;
    target->dense_cpus.push_back(cpu);
    target->linux_cpus.push_back(place.linux_cpu);
  }
  return 0;
}

int AddTarget(pm_session_t *session, SessionTarget target) {
  session->targets.push_back(std::move(target));
  return 0;
}

int ReadPart(pm_session_t *session, int target, int cpu, pm_session_count_t *counts, int ncounts) {
  if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
  if (ncounts < 0 || (ncounts > 0 && !counts)) {
    return Report(Pmapi_InvalidArg, "counts is NULL or ncounts is negative");
  }
  if (!session->counting.is_open()) {
    return Report(Pmapi_NoSetProg, "the session is not open: pm_session_open or _start first");
  }
  const size_t n = static_cast<size_t>(ncounts) < session->events.size()
                       ? static_cast<size_t>(ncounts)
                       : session->events.size();
  std::vector<SessionCount> &sums = session->sums;
  const int rc = Report(session->counting.Read(target, cpu, sums.data(), n));
  if (rc != 0) return rc;
  for (size_t i = 0; i < n; ++i) {
    counts[i].value = sums[i].value;
    counts[i].raw = sums[i].raw;
    counts[i].enabled = sums[i].enabled;
    counts[i].running = sums[i].running;
    counts[i].scaled = sums[i].scaled;
  }
  return 0;
}

}  // namespace

extern "C" {

int pm_session_create(int flags, pm_session_t **session) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "session is NULL");
    *session = nullptr;
    if (flags & ~PM_SESSION_FLEXIBLE) {
      return Report(Pmapi_InvalidArg, "flags must be 0 or PM_SESSION_FLEXIBLE");
    }
    *session = new pm_session;
    (*session)->counting.set_flexible(flags & PM_SESSION_FLEXIBLE);
    return 0;
  });
}

void pm_session_destroy(pm_session_t *session) {
  Guarded([&] {
    delete session;
    return 0;
  });
}

int pm_session_add_events(pm_session_t *session, const char *spec, int *added) {
  return Guarded([&] {
    if (added) *added = 0;
    if (!session || !spec) return Report(Pmapi_InvalidArg, "the session or the spec is NULL");
    if (int rc = NotWhileOpen(session, "events")) return rc;
    if (!LibraryInitialized()) {
      return Report(Pmapi_NoInit, "call pm_initialize (or pm_init) before adding events");
    }
    const size_t before = session->events.size();
    const int rc = Report(SessionEventsOf(spec, &session->events));
    if (rc != 0) return rc;
    if (added) *added = static_cast<int>(session->events.size() - before);
    return 0;
  });
}

int pm_session_nevents(const pm_session_t *session, int *nevents) {
  return Guarded([&] {
    if (!session || !nevents) return Report(Pmapi_InvalidArg, "the session or nevents is NULL");
    *nevents = static_cast<int>(session->events.size());
    return 0;
  });
}

int pm_session_event_info(const pm_session_t *session, int index, pm_session_event_t *info) {
  return Guarded([&] {
    if (!session || !info) return Report(Pmapi_InvalidArg, "the session or info is NULL");
    if (index < 0 || static_cast<size_t>(index) >= session->events.size()) {
      return Report(Pmapi_InvalidArg, "event " + std::to_string(index) + " is not one of the " +
                                          std::to_string(session->events.size()) +
                                          " events of the session");
    }
    const SessionEvent &event = session->events[static_cast<size_t>(index)];
    memset(info, 0, sizeof *info);
    const size_t n =
        event.name.size() < PM_SESSION_NAME_MAX - 1 ? event.name.size() : PM_SESSION_NAME_MAX - 1;
    memcpy(info->name, event.name.data(), n);
    info->event_id = event.event_id;
    switch (event.kind) {
      case EventKind::kHardware:
        info->kind = PM_SESSION_HARDWARE;
        break;
      case EventKind::kSoftware:
        info->kind = PM_SESSION_SOFTWARE;
        break;
      case EventKind::kTracepoint:
        info->kind = PM_SESSION_TRACEPOINT;
        break;
      case EventKind::kPmu:
        info->kind = PM_SESSION_PMU;
        break;
    }
    info->user = !event.attr.exclude_user;
    info->kernel = !event.attr.exclude_kernel;
    info->hypervisor = !event.attr.exclude_hv;
    info->group = session->counting.GroupOf(static_cast<size_t>(index));
    return 0;
  });
}

int pm_session_add_thread(pm_session_t *session, pid_t tid) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (tid < 0) return Report(Pmapi_InvalidArg, "tid " + std::to_string(tid) + " is negative");
    if (int rc = NotWhileOpen(session, "a thread")) return rc;
    SessionTarget target;
    target.kind = SessionTarget::Kind::kThread;
    target.pid = tid;
    return AddTarget(session, std::move(target));
  });
}

int pm_session_add_process(pm_session_t *session, pid_t pid) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (pid <= 0)
      return Report(Pmapi_InvalidArg, "pid " + std::to_string(pid) + " is not a process id");
    if (int rc = NotWhileOpen(session, "a process")) return rc;
    SessionTarget target;
    target.kind = SessionTarget::Kind::kProcess;
    target.pid = pid;
    return AddTarget(session, std::move(target));
  });
}

int pm_session_add_cpus(pm_session_t *session, const int *cpus, int ncpus) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (int rc = NotWhileOpen(session, "CPUs")) return rc;
    SessionTarget target;
    target.kind = SessionTarget::Kind::kCpus;
    if (int rc = AddCpus(cpus, ncpus, &target)) return rc;
    return AddTarget(session, std::move(target));
  });
}

int pm_session_add_cgroup(pm_session_t *session, const char *path, const int *cpus, int ncpus) {
  return Guarded([&] {
    if (!session || !path || !*path) {
      return Report(Pmapi_InvalidArg, "the session is NULL, or the cgroup path NULL or empty");
    }
    if (int rc = NotWhileOpen(session, "a cgroup")) return rc;
    SessionTarget target;
    target.kind = SessionTarget::Kind::kCgroup;
    target.cgroup = path;
    if (int rc = AddCpus(cpus, ncpus, &target)) return rc;
    return AddTarget(session, std::move(target));
  });
}

int pm_session_open(pm_session_t *session) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (session->counting.is_open()) return 0;
    std::vector<SessionTarget> targets = session->targets;
    // No target: the thread that opens.
    if (targets.empty()) targets.emplace_back();
    session->sums.assign(session->events.size(), SessionCount());
    return Report(session->counting.Open(session->events, targets));
  });
}

int pm_session_start(pm_session_t *session) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (session->counting_on) return 0;
    if (int rc = pm_session_open(session)) return rc;
    const int rc = Report(session->counting.Enable());
    if (rc != 0) {
      // Nothing left half on.
      session->counting.Disable();
      return rc;
    }
    session->counting_on = true;
    return 0;
  });
}

int pm_session_stop(pm_session_t *session) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    if (!session->counting.is_open()) {
      return Report(Pmapi_NoSetProg, "the session is not open: nothing to stop");
    }
    if (!session->counting_on) return 0;
    session->counting_on = false;
    return Report(session->counting.Disable());
  });
}

int pm_session_reset(pm_session_t *session) {
  return Guarded([&] {
    if (!session) return Report(Pmapi_InvalidArg, "the session is NULL");
    return Report(session->counting.Reset());
  });
}

int pm_session_read(pm_session_t *session, pm_session_count_t *counts, int ncounts) {
  return Guarded([&] {
    return ReadPart(session, CountingSession::kAny, CountingSession::kAny, counts, ncounts);
  });
}

int pm_session_read_cpu(pm_session_t *session, int cpu, pm_session_count_t *counts, int ncounts) {
  return Guarded([&] {
    if (session && session->counting.is_open() && !session->counting.CountsCpu(cpu)) {
      return Report(Pmapi_CpuNotCounted, "no target of the session counts CPU " +
                                             std::to_string(cpu) +
                                             " (thread and process targets are not per CPU)");
    }
    return ReadPart(session, CountingSession::kAny, cpu, counts, ncounts);
  });
}

int pm_session_read_target(pm_session_t *session, int target, pm_session_count_t *counts,
                           int ncounts) {
  return Guarded([&] {
    if (session) {
      const size_t targets = session->targets.empty() ? 1 : session->targets.size();
      if (target < 0 || static_cast<size_t>(target) >= targets) {
        return Report(Pmapi_InvalidArg, "target " + std::to_string(target) +
                                            " is not one of the session's " +
                                            std::to_string(targets));
      }
    }
    return ReadPart(session, target, CountingSession::kAny, counts, ncounts);
  });
}

}  // extern "C"
