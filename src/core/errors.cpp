// The error table (docs/errors.md) and the per-thread detail of the last
// failure.
#include <errno.h>
#include <string.h>

#include <string>

#include "core/last_error.h"
#include "pmapi.h"

namespace pmapi {
namespace {

struct LastFailure {
  int code = 0;
  std::string detail;
};

thread_local LastFailure t_last;

std::string ParanoidLevel() {
  // Read directly, not through the seam: it is only used to word a message.
  FILE *file = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
  if (!file) return "unknown";
  char buf[16] = {0};
  std::string level = fgets(buf, sizeof buf, file) ? buf : "unknown";
  fclose(file);
  while (!level.empty() && (level.back() == '\n' || level.back() == ' ')) level.pop_back();
  return level;
}

}  // namespace

int Report(const Status &status) {
  if (status.ok()) return 0;
  t_last.code = status.code();
  t_last.detail = status.detail();
  return status.code();
}

int Report(int code, std::string detail) {
  t_last.code = code;
  t_last.detail = std::move(detail);
  return code;
}

const std::string &LastDetailFor(int code) {
  static const std::string kNone;
  return t_last.code == code ? t_last.detail : kNone;
}

Status StatusFromErrno(int err, const std::string &what) {
  std::string errno_text = std::string(strerrorname_np(err) ? strerrorname_np(err) : "errno") +
                           " (" + strerror(err) + ")";
  std::string base = what + ": " + errno_text;
  switch (err) {
    case EACCES:
    case EPERM:
      return Status(Pmapi_Permission,
                    base + "; kernel.perf_event_paranoid is " + ParanoidLevel() +
                        ": counting other users' processes, the kernel or the whole machine "
                        "needs root or CAP_PERFMON (or a lower perf_event_paranoid)");
    case ENOENT:
    case EOPNOTSUPP:
      return Status(Pmapi_NoHardware,
                    base +
                        "; this kernel or processor cannot count the event (a virtual "
                        "machine without a hardware PMU refuses all hardware events); "
                        "software events and tracepoints still count");
    case ESRCH:
      return Status(Pmapi_NoSuchThread, base + "; the target thread does not exist");
    case EMFILE:
    case ENFILE:
      return Status(Pmapi_TooManyFiles,
                    base +
                        "; out of file descriptors: raise the limit (ulimit -n) or count "
                        "fewer events or CPUs");
    case ENOMEM:
      return Status(Pmapi_Malloc_Err, base + "; out of memory");
    case EBUSY:
      return Status(Pmapi_Busy, base + "; another user holds the counters exclusively");
    case EINTR:
      return Status(Pmapi_Interrupted, base + "; interrupted by a signal, try again");
    case ENODEV:
      return Status(Pmapi_KernelError,
                    base + "; the device went away (a CPU taken offline?): set the program again");
    case EINVAL:
    case E2BIG:
    default:
      return Status(Pmapi_KernelError, base);
  }
}

Status StatusFromFileErrno(int err, const std::string &what) {
  std::string base = what + ": " + (strerrorname_np(err) ? strerrorname_np(err) : "errno") + " (" +
                     strerror(err) + ")";
  switch (err) {
    case EMFILE:
    case ENFILE:
      return Status(Pmapi_TooManyFiles,
                    base + "; out of file descriptors: raise the limit (ulimit -n)");
    case ENOMEM:
      return Status(Pmapi_Malloc_Err, base + "; out of memory");
    case EINTR:
      return Status(Pmapi_Interrupted, base + "; interrupted by a signal, try again");
    default:
      return Status(Pmapi_KernelError, base);
  }
}

const char *MessageFor(int code) {
  switch (code) {
    case 0:
      return "success";
    case Pmapi_NoInit:
      return "pmapi is not initialized: call pm_initialize or pm_init first";
    case Pmapi_NoSetProg:
      return "no program is set for this context: call pm_set_program* first";
    case Pmapi_InvalidArg:
      return "invalid argument (a NULL pointer or a value out of range)";
    case Pmapi_InvalidFilter:
      return "invalid filter: use PM_VERIFIED, PM_UNVERIFIED and/or PM_CAVEAT";
    case Pmapi_InvalidProcType:
      return "unknown processor type";
    case Pmapi_InvalidEvent:
      return "event id not available on this counter under the initialized filter";
    case Pmapi_InvalidGroup:
      return "unknown event-group id";
    case Pmapi_NoEvents:
      return "the program counts no event: every counter is COUNT_NOTHING";
    case Pmapi_Threshold:
      return "thresholds are not supported on Linux: set mode.b.threshold to 0";
    case Pmapi_NoDomain:
      return "the mode counts in no privilege level: set PM_USER and/or PM_KERNEL";
    case Pmapi_InvalidCpu:
      return "no such online CPU";
    case Pmapi_CpuNotCounted:
      return "this CPU was not counted since pm_set_program";
    case Pmapi_SysThreadConflict:
      return "a process has either the system-wide context or thread contexts, never both: "
             "delete the other first";
    case Pmapi_Permission:
      return "the kernel refused for lack of privilege";
    case Pmapi_NoHardware:
      return "the kernel cannot count this event on this machine";
    case Pmapi_TooManyFiles:
      return "out of file descriptors";
    case Pmapi_Malloc_Err:
      return "out of memory";
    case Pmapi_NotSchedulable:
      return "the kernel could not schedule the events together: program fewer events";
    case Pmapi_Multiplexed:
      return "the kernel multiplexed the counters: the counts cover only part of the time "
             "(pm_get_Tdata* gives the time counted)";
    case Pmapi_NoSuchThread:
      return "no such process or thread";
    case Pmapi_Unsupported:
      return "not supported on Linux";
    case Pmapi_NotSystemWide:
      return "per-CPU reads need a system-wide program without proctree";
    case Pmapi_GroupMember:
      return "the thread belongs to a counting group";
    case Pmapi_KernelError:
      return "the kernel returned an unexpected error";
    case Pmapi_BadCatalog:
      return "an event or group table is invalid";
    case Pmapi_Busy:
      return "the counters are busy";
    case Pmapi_Interrupted:
      return "interrupted system call";
    case Pmapi_ShortRead:
      return "the kernel returned fewer bytes than expected";
    case Pmapi_ProgExists:
      return "a program already exists for this context: call pm_delete_program* first";
    case Pmapi_NotCounting:
      return "counting is not on";
    case Pmapi_Unsupported_EBBThreadMode:
    case Pmapi_Invalid_EBB_handler_addr:
    case Pmapi_Invalid_EBB_data_addr:
    case Pmapi_Invalid_EBB_Config:
    case Pmapi_EBB_Already_Exists:
    case Pmapi_EBB_NotSet:
      return "event-based branching is a POWER feature: not supported on Linux";
    default:
      return "unknown pmapi error code";
  }
}

}  // namespace pmapi
