// SPDX-License-Identifier: MIT
// pm_error and pm_strerror: the fixed message for a code plus, when this
// thread's last failure had that code, what exactly failed. Composed in a
// per-thread buffer: no allocation, so neither can fail or throw.
#include <stdio.h>
#include <string.h>

#include "api/export.h"
#include "base/last_error.h"

namespace {

// "where: message (detail)", cut to fit.
constexpr size_t kTextSize = 2 * pmapi::Status::kMaxDetail;

char *Compose(const char *where, int code, char (&text)[kTextSize]) {
  size_t length = 0;
  auto append = [&](const char *piece) {
    const size_t n = strnlen(piece, kTextSize - 1 - length);
    memcpy(text + length, piece, n);
    length += n;
  };
  if (where && *where) {
    append(where);
    append(": ");
  }
  append(pmapi::MessageFor(code));
  const char *detail = pmapi::LastDetailFor(code);
  if (*detail) {
    append(" (");
    append(detail);
    append(")");
  }
  text[length] = '\0';
  return text;
}

}  // namespace

extern "C" {

// The text stays valid until the next pm_strerror call in the same thread.
char *pm_strerror(const char *where, int error) {
  thread_local char text[kTextSize];
  return Compose(where, error, text);
}

void pm_error(const char *where, int error) {
  char text[kTextSize];
  fprintf(stderr, "%s\n", Compose(where, error, text));
}

}  // extern "C"
