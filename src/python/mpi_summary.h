// SPDX-License-Identifier: MIT
// pmapi._pmapi._mpi_banner and _mpi_stats: the cross-rank summary of src/report (the table
// libpmapi-mpi prints), over counts pmapi/mpi.py gathered with mpi4py.
#pragma once

#include <pybind11/pybind11.h>

namespace pmapi_python {

void BindMpiSummary(pybind11::module_ &module);

}  // namespace pmapi_python
