// SPDX-License-Identifier: MIT
// A failed pm_* call as a C++ exception that the module turns into the matching pmapi.Error
// subclass, with the library's sentence for it (pm_strerror: what failed, what to do).
#pragma once

#include <string>

namespace pmapi_python {

struct Failure {
  int code;             // a Pmapi_* code
  std::string message;  // the library's sentence
};

// Throws Failure for a non-zero `rc`, its sentence taken from pm_strerror(where, rc) on the
// calling thread (the thread the call failed on, so the detail is this call's).
void Check(int rc, const char *where);

// Sets the Python error for `f` (its pmapi.Error subclass, from pmapi/_errors.py).
void SetPythonError(const Failure &f);

// Installs the translator from Failure to pmapi.Error (pmapi/_errors.py).
void RegisterErrors();

}  // namespace pmapi_python
