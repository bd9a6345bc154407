// SPDX-License-Identifier: MIT
// Failure -> the Python exception: the class is chosen in pmapi/_errors.py, the one table of
// codes to classes, so that Python code can catch pmapi.InvalidEventError and the like.
#include "errors.h"

#include <pmapi.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace pmapi_python {

void Check(int rc, const char *where) {
  if (rc == 0) return;
  const char *sentence = pm_strerror(where, rc);
  throw Failure{rc, sentence ? sentence : where};
}

void SetPythonError(const Failure &f) {
  try {
    py::object error = py::module_::import("pmapi._errors").attr("error_for")(f.code, f.message);
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(error.ptr())), error.ptr());
  } catch (py::error_already_set &e) {
    e.restore();  // pmapi._errors itself failed: that error, rather than none
  }
}

void RegisterErrors() {
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const Failure &f) {
      SetPythonError(f);
    }
  });
}

}  // namespace pmapi_python
