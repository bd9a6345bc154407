// pm_error and pm_strerror: the fixed message for a code plus, when this
// thread's last failure had that code, what exactly failed.
#include <stdio.h>

#include <string>

#include "api/export.h"
#include "core/last_error.h"

namespace {

std::string Compose(const char *where, int code) {
  std::string text;
  if (where && *where) text = std::string(where) + ": ";
  text += pmapi::MessageFor(code);
  const std::string &detail = pmapi::LastDetailFor(code);
  if (!detail.empty()) text += " (" + detail + ")";
  return text;
}

}  // namespace

extern "C" {

// The text stays valid until the next pm_strerror call in the same thread.
char *pm_strerror(const char *where, int error) {
  thread_local std::string text;
  text = Compose(where, error);
  return &text[0];
}

void pm_error(const char *where, int error) {
  std::string text = Compose(where, error);
  fprintf(stderr, "%s\n", text.c_str());
}

}  // extern "C"
