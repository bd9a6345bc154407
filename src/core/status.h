// The result of every internal operation: a pmapi error code (0 = ok) and,
// on failure, a sentence of detail for pm_strerror ("event syscalls:foo on
// CPU 3: errno ENOENT ..."). Carried up unchanged to the C boundary, which
// records it for the calling thread and returns the code.
#pragma once

#include <string>
#include <utility>

namespace pmapi {

class Status {
 public:
  Status() = default;  // ok
  Status(int code, std::string detail) : code_(code), detail_(std::move(detail)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == 0; }
  int code() const { return code_; }
  const std::string &detail() const { return detail_; }

 private:
  int code_ = 0;
  std::string detail_;
};

// Maps an errno from perf_event_open/ioctl/read to a pmapi code and a detail
// that says what to do about it (privilege, missing PMU, descriptors...).
// `what` names the operation and its target, e.g. "open task-clock on CPU 1".
Status StatusFromErrno(int err, const std::string &what);

// The same for a failed read of a sysfs, procfs or tracefs file, where the perf meanings do
// not apply (ENOENT is no missing PMU, EACCES no perf_event_paranoid matter): running out of
// descriptors or memory and EINTR keep their codes, anything else is Pmapi_KernelError.
// `what` names the file.
Status StatusFromFileErrno(int err, const std::string &what);

}  // namespace pmapi
