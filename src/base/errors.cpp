// SPDX-License-Identifier: MIT
// The error table (docs/errors.md) and the per-thread detail of the last
// failure. Nothing here allocates: a signal handler's failed call reports
// through the same path (see status.h).
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/kernel.h"
#include "base/last_error.h"
#include "pmapi.h"

namespace pmapi {
namespace {

struct LastFailure {
  int code = 0;
  char detail[Status::kMaxDetail + 1] = {0};
};

thread_local LastFailure t_last;

// Copies `text` into `to` (`size` bytes), cut and NUL-terminated.
void CopyBounded(const char *text, char *to, size_t size) {
  size_t n = strnlen(text, size - 1);
  memcpy(to, text, n);
  to[n] = '\0';
}

const char *ErrnoName(int err) {
  const char *name = strerrorname_np(err);
  return name ? name : "errno";
}

// glibc's English description: a constant, unlike strerror's localized text.
const char *ErrnoText(int err) {
  const char *text = strerrordesc_np(err);
  return text ? text : "unknown error";
}

}  // namespace

Status::Status(int code, const char *detail) : code_(code) {
  detail_[0] = '\0';
  Append(detail);
}

Status::Status(int code, std::initializer_list<const char *> pieces) : code_(code) {
  detail_[0] = '\0';
  for (const char *piece : pieces) Append(piece);
}

void Status::Append(const char *piece) {
  static constexpr char kCut[] = "...";
  if (!piece) return;
  const size_t room = kMaxDetail - length_;
  const size_t n = strnlen(piece, room + 1);
  if (n <= room) {
    memcpy(detail_ + length_, piece, n);
    length_ += n;
  } else {
    memcpy(detail_ + length_, piece, room);
    length_ = kMaxDetail;
    memcpy(detail_ + kMaxDetail - (sizeof kCut - 1), kCut, sizeof kCut - 1);
  }
  detail_[length_] = '\0';
}

void Status::CopyFrom(const Status &other) {
  code_ = other.code_;
  kernel_errno_ = other.kernel_errno_;
  length_ = other.length_;
  memcpy(detail_, other.detail_, length_ + 1);
}

Decimal::Decimal(unsigned long long value) {
  text_[start_] = '\0';
  do {
    text_[--start_] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
}

int Report(const Status &status) {
  if (status.ok()) return 0;
  return Report(status.code(), status.detail_text());
}

int Report(int code, const char *detail) {
  t_last.code = code;
  CopyBounded(detail ? detail : "", t_last.detail, sizeof t_last.detail);
  return code;
}

const char *LastDetailFor(int code) { return t_last.code == code ? t_last.detail : ""; }

namespace {

Status DescribeErrno(int err, std::initializer_list<const char *> what) {
  Status base(0, what);
  const char *text = base.detail_text();
  const char *name = ErrnoName(err);
  const char *description = ErrnoText(err);
  switch (err) {
    case EACCES:
    case EPERM: {
      char level[16];
      ReadPerfEventParanoid(level, sizeof level);
      // Level 3, Debian's and Android's default (a patch, not in upstream kernels), refuses
      // perf_event_open to every user without CAP_PERFMON, even on their own processes.
      const bool closed = level[0] >= '3' && level[0] <= '9';
      if (closed) {
        return Status(
            Pmapi_Permission,
            {text, ": ", name, " (", description, "); kernel.perf_event_paranoid is ", level,
             " (Debian's default): no counting at all without root or CAP_PERFMON; "
             "root may allow a user's own processes with "
             "sysctl kernel.perf_event_paranoid=2"});
      }
      return Status(
          Pmapi_Permission,
          {text, ": ", name, " (", description, "); kernel.perf_event_paranoid is ", level,
           ": counting other users' processes, the kernel or the whole machine "
           "needs root or CAP_PERFMON (or a lower perf_event_paranoid)"});
    }
    case ENOENT:
    case EOPNOTSUPP:
      return Status(Pmapi_NoHardware,
                    {text, ": ", name, " (", description,
                     "); this kernel or processor cannot count the event (a virtual "
                     "machine without a hardware PMU refuses all hardware events); "
                     "software events and tracepoints still count"});
    case ESRCH:
      return Status(Pmapi_NoSuchThread,
                    {text, ": ", name, " (", description, "); the target thread does not exist"});
    case EMFILE:
    case ENFILE:
      return Status(Pmapi_TooManyFiles,
                    {text, ": ", name, " (", description,
                     "); out of file descriptors: raise the limit (ulimit -n) or count "
                     "fewer events or CPUs"});
    case ENOMEM:
      return Status(Pmapi_Malloc_Err, {text, ": ", name, " (", description, "); out of memory"});
    case EBUSY:
      return Status(Pmapi_Busy, {text, ": ", name, " (", description,
                                 "); another user holds the counters exclusively"});
    case EINTR:
      return Status(Pmapi_Interrupted,
                    {text, ": ", name, " (", description, "); interrupted by a signal, try again"});
    case ENODEV:
      return Status(Pmapi_KernelError,
                    {text, ": ", name, " (", description,
                     "); the device went away (a CPU taken offline?): set the program again"});
    case EINVAL:
    case E2BIG:
    default:
      return Status(Pmapi_KernelError, {text, ": ", name, " (", description, ")"});
  }
}

}  // namespace

Status StatusFromErrno(int err, std::initializer_list<const char *> what) {
  Status status = DescribeErrno(err, what);
  status.set_kernel_errno(err);
  return status;
}

Status StatusFromFileErrno(int err, const std::string &what) {
  const char *name = ErrnoName(err);
  const char *description = ErrnoText(err);
  switch (err) {
    case EMFILE:
    case ENFILE:
      return Status(Pmapi_TooManyFiles,
                    {what.c_str(), ": ", name, " (", description,
                     "); out of file descriptors: raise the limit (ulimit -n)"});
    case ENOMEM:
      return Status(Pmapi_Malloc_Err,
                    {what.c_str(), ": ", name, " (", description, "); out of memory"});
    case EINTR:
      return Status(Pmapi_Interrupted, {what.c_str(), ": ", name, " (", description,
                                        "); interrupted by a signal, try again"});
    default:
      return Status(Pmapi_KernelError, {what.c_str(), ": ", name, " (", description, ")"});
  }
}

// Every row names its code once: the name is the constant's own spelling.
#define PMAPI_ERROR(code, message) \
  { code, #code, message }

constexpr const char kEbb[] = "event-based branching is a POWER feature: not supported on Linux";

const ErrorInfo kErrorTable[] = {
    PMAPI_ERROR(Pmapi_NoInit, "pmapi is not initialized: call pm_initialize or pm_init first"),
    PMAPI_ERROR(Pmapi_NoSetProg, "no program is set for this context: call pm_set_program* first"),
    PMAPI_ERROR(Pmapi_InvalidArg, "invalid argument (a NULL pointer or a value out of range)"),
    PMAPI_ERROR(Pmapi_InvalidFilter,
                "invalid filter: use PM_VERIFIED, PM_UNVERIFIED and/or PM_CAVEAT"),
    PMAPI_ERROR(Pmapi_InvalidProcType, "unknown processor type"),
    PMAPI_ERROR(Pmapi_InvalidEvent,
                "event id not available on this counter under the initialized filter"),
    PMAPI_ERROR(Pmapi_InvalidGroup, "unknown event-group id"),
    PMAPI_ERROR(Pmapi_NoEvents, "the program counts no event: every counter is COUNT_NOTHING"),
    PMAPI_ERROR(Pmapi_Threshold,
                "thresholds are not supported on Linux: set mode.b.threshold to 0"),
    PMAPI_ERROR(Pmapi_NoDomain,
                "the mode counts in no privilege level: set PM_USER and/or PM_KERNEL"),
    PMAPI_ERROR(Pmapi_InvalidCpu, "no such online CPU"),
    PMAPI_ERROR(Pmapi_CpuNotCounted, "this CPU was not counted since pm_set_program"),
    PMAPI_ERROR(Pmapi_SysThreadConflict,
                "a process has either the system-wide context or thread contexts, never both: "
                "delete the other first"),
    PMAPI_ERROR(Pmapi_Permission, "the kernel refused for lack of privilege"),
    PMAPI_ERROR(Pmapi_NoHardware, "the kernel cannot count this event on this machine"),
    PMAPI_ERROR(Pmapi_TooManyFiles, "out of file descriptors"),
    PMAPI_ERROR(Pmapi_Malloc_Err, "out of memory"),
    PMAPI_ERROR(Pmapi_NotSchedulable,
                "the kernel could not schedule the events together: program fewer events"),
    PMAPI_ERROR(Pmapi_Multiplexed,
                "the kernel multiplexed the counters: the counts cover only part of the time "
                "(pm_get_Tdata* gives the time counted)"),
    PMAPI_ERROR(Pmapi_NoSuchThread, "no such process or thread"),
    PMAPI_ERROR(Pmapi_Unsupported, "not supported on Linux"),
    PMAPI_ERROR(Pmapi_NotSystemWide, "per-CPU reads need a system-wide program without proctree"),
    PMAPI_ERROR(Pmapi_GroupMember, "the thread belongs to a counting group"),
    PMAPI_ERROR(Pmapi_KernelError, "the kernel returned an unexpected error"),
    PMAPI_ERROR(Pmapi_BadCatalog, "an event or group table is invalid"),
    PMAPI_ERROR(Pmapi_Busy, "the counters are busy"),
    PMAPI_ERROR(Pmapi_Interrupted, "interrupted system call"),
    PMAPI_ERROR(Pmapi_ShortRead, "the kernel returned fewer bytes than expected"),
    PMAPI_ERROR(Pmapi_ProgExists,
                "a program already exists for this context: call pm_delete_program* first"),
    PMAPI_ERROR(Pmapi_NotCounting, "counting is not on"),
    PMAPI_ERROR(Pmapi_EBB_NotSet, kEbb),
    PMAPI_ERROR(Pmapi_Unsupported_EBBThreadMode, kEbb),
    PMAPI_ERROR(Pmapi_Invalid_EBB_handler_addr, kEbb),
    PMAPI_ERROR(Pmapi_Invalid_EBB_data_addr, kEbb),
    PMAPI_ERROR(Pmapi_Invalid_EBB_Config, kEbb),
    PMAPI_ERROR(Pmapi_EBB_Already_Exists, kEbb),
};
#undef PMAPI_ERROR
const size_t kErrorTableSize = sizeof kErrorTable / sizeof kErrorTable[0];

const char *MessageFor(int code) {
  if (code == 0) return "success";
  for (const ErrorInfo &error : kErrorTable) {
    if (error.code == code) return error.message;
  }
  return "unknown pmapi error code";
}

}  // namespace pmapi
