// SPDX-License-Identifier: MIT
// pmapi._pmapi._bench_c_calls: the C side of the package's benchmark (bench_calls.cpp).
#pragma once

#include <pybind11/pybind11.h>

namespace pmapi_python {

void BindBenchCalls(pybind11::module_ &module);

}  // namespace pmapi_python
