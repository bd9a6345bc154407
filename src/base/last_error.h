/* SPDX-License-Identifier: MIT */
// The detail of the last failure, kept per thread so that pm_error and
// pm_strerror can say what failed in the thread that asked.
#pragma once

#include <stddef.h>

#include "base/status.h"

namespace pmapi {

// Records `status` as this thread's last failure and returns its code; an ok
// status returns 0 and leaves the record alone.
int Report(const Status &status);

// Records a failure built from a code and a detail; returns the code. Like
// everything here it never allocates (a longer detail is cut).
int Report(int code, const char *detail);
inline int Report(int code, const std::string &detail) { return Report(code, detail.c_str()); }

// The detail recorded for `code` in this thread, or "" if the last failure
// recorded here had another code. Never null.
const char *LastDetailFor(int code);

// Every code with its name and fixed sentence, as data: the header's enum and docs/errors.md
// are checked against it (tests/base/errors_table_test.cpp).
struct ErrorInfo {
  int code;
  const char *name;  // the constant's name in pmapi.h
  const char *message;
};
extern const ErrorInfo kErrorTable[];
extern const size_t kErrorTableSize;

// The fixed sentence for each code (docs/errors.md); never null.
const char *MessageFor(int code);

}  // namespace pmapi
