/* SPDX-License-Identifier: MIT */
// The result of every internal operation: a pmapi error code (0 = ok) and,
// on failure, a sentence of detail for pm_strerror ("event syscalls:foo on
// CPU 3: errno ENOENT ..."). Carried up unchanged to the C boundary, which
// records it for the calling thread and returns the code.
//
// The detail lives in the Status itself, in a fixed buffer: building,
// copying and reporting a Status never allocates, so the calls a signal
// handler may make (docs/counting.md) stay async-signal-safe on their error
// paths too. Cold paths may still build their text as a std::string.
#pragma once

#include <stddef.h>

#include <initializer_list>
#include <string>

#include "base/engine_export.h"

namespace pmapi {

class Status {
 public:
  // Longer details are cut (and end in "...").
  static constexpr size_t kMaxDetail = 511;

  Status() { detail_[0] = '\0'; }  // ok; no more is written: Ok() is on every hot path
  // Each piece is copied; none is kept.
  Status(int code, const char *detail);
  Status(int code, std::initializer_list<const char *> pieces);
  Status(int code, const std::string &detail) : Status(code, detail.c_str()) {}
  Status(const Status &other) { CopyFrom(other); }
  Status &operator=(const Status &other) {
    if (this != &other) CopyFrom(other);
    return *this;
  }

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == 0; }
  int code() const { return code_; }
  // Never null.
  const char *detail_text() const { return detail_; }
  std::string detail() const { return detail_; }
  // The errno the kernel gave, when StatusFromErrno made this Status; 0 otherwise. For front
  // ends that speak errno themselves (compat/netbsd), which report it unchanged.
  int kernel_errno() const { return kernel_errno_; }
  void set_kernel_errno(int err) { kernel_errno_ = err; }

 private:
  void Append(const char *piece);
  PMAPI_ENGINE_EXPORT void CopyFrom(const Status &other);

  int code_ = 0;
  int kernel_errno_ = 0;
  size_t length_ = 0;
  char detail_[kMaxDetail + 1];  // NUL-terminated at length_
};

// A number as text, built without allocating: for details on hot paths.
class Decimal {
 public:
  explicit Decimal(unsigned long long value);
  const char *c_str() const { return text_ + start_; }

 private:
  char text_[24];
  int start_ = 23;
};

// Maps an errno from perf_event_open/ioctl/read to a pmapi code and a detail
// that says what to do about it (privilege, missing PMU, descriptors...).
// `what` names the operation and its target, e.g. "open task-clock on CPU 1".
// Allocation-free with the pieces form.
Status StatusFromErrno(int err, std::initializer_list<const char *> what);
inline Status StatusFromErrno(int err, const std::string &what) {
  return StatusFromErrno(err, {what.c_str()});
}

// The same for a failed read of a sysfs, procfs or tracefs file, where the perf meanings do
// not apply (ENOENT is no missing PMU, EACCES no perf_event_paranoid matter): running out of
// descriptors or memory and EINTR keep their codes, anything else is Pmapi_KernelError.
// `what` names the file.
Status StatusFromFileErrno(int err, const std::string &what);

}  // namespace pmapi
