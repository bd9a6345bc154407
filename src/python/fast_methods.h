// SPDX-License-Identifier: MIT
// The constructor and the methods a with-block and a read call, as plain CPython methods on
// pmapi.Session: the generic binding's call costs more than the rest of the Python side
// (docs/performance.md).
#pragma once

#include <pybind11/pybind11.h>

namespace pmapi_python {

void AddFastMethods(pybind11::handle session_type);

}  // namespace pmapi_python
