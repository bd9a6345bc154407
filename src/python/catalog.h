// SPDX-License-Identifier: MIT
// The catalog for Python: events found by pmlist's search rule, the groups with their
// members and formulas, and where each dense CPU sits. Plain tuples: pmapi/_catalog.py names
// their fields.
#pragma once

#include <pybind11/pybind11.h>

namespace pmapi_python {

void BindCatalog(pybind11::module_ &module);

}  // namespace pmapi_python
