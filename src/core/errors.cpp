// The error table (docs/errors.md) and the per-thread detail of the last
// failure. Nothing here allocates: a signal handler's failed call reports
// through the same path (see status.h).
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/last_error.h"
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

// The level as the file says it ("2"), read with plain system calls; "unknown" when unreadable.
void ReadParanoidLevel(char *level, size_t size) {
  CopyBounded("unknown", level, size);
  const int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[16];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return;
  size_t end = static_cast<size_t>(n);
  while (end > 0 && (buf[end - 1] == '\n' || buf[end - 1] == ' ')) --end;
  buf[end] = '\0';
  CopyBounded(buf, level, size);
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

Status StatusFromErrno(int err, std::initializer_list<const char *> what) {
  Status base(0, what);
  const char *text = base.detail_text();
  const char *name = ErrnoName(err);
  const char *description = ErrnoText(err);
  switch (err) {
    case EACCES:
    case EPERM: {
      char level[16];
      ReadParanoidLevel(level, sizeof level);
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
