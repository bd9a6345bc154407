// SPDX-License-Identifier: MIT
#include "fast_methods.h"

#include "errors.h"
#include "session.h"

namespace py = pybind11;

namespace pmapi_python {
namespace {

// The Session inside `self` (a pmapi.Session or a subclass), or NULL with TypeError set when
// its __init__ never ran.
Session *Of(PyObject *self) {
  auto *instance = reinterpret_cast<py::detail::instance *>(self);
  py::detail::value_and_holder held = instance->get_value_and_holder(nullptr, false);
  Session *session = held ? held.value_ptr<Session>() : nullptr;
  if (!session || !held.holder_constructed()) {
    PyErr_SetString(PyExc_TypeError, "pmapi.Session.__init__ was not called");
    return nullptr;
  }
  return session;
}

// The exception in flight as the Python error, as the generic binding would set it.
PyObject *Raised() {
  try {
    throw;
  } catch (py::error_already_set &e) {
    e.restore();
  } catch (py::builtin_exception &e) {
    e.set_error();
  } catch (const Failure &f) {
    SetPythonError(f);
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject *Enter(PyObject *self, PyObject *) {
  Session *s = Of(self);
  if (!s) return nullptr;
  try {
    s->Start();
  } catch (...) {
    return Raised();
  }
  Py_INCREF(self);
  return self;
}

PyObject *Exit(PyObject *self, PyObject *const *, Py_ssize_t) {
  Session *s = Of(self);
  if (!s) return nullptr;
  try {
    s->Stop();
  } catch (...) {
    return Raised();
  }
  Py_RETURN_FALSE;  // an exception from the block goes on
}

PyObject *Read(PyObject *self, PyObject *) {
  Session *s = Of(self);
  if (!s) return nullptr;
  try {
    s->Refresh();
  } catch (...) {
    return Raised();
  }
  const auto &counts = s->counts();
  PyObject *values = PyList_New(Py_ssize_t(counts.size()));
  if (!values) return nullptr;
  for (size_t i = 0; i < counts.size(); ++i) {
    PyObject *value = PyLong_FromUnsignedLongLong(counts[i].value);
    if (!value) {
      Py_DECREF(values);
      return nullptr;
    }
    PyList_SET_ITEM(values, Py_ssize_t(i), value);
  }
  return values;
}

PyMethodDef kMethods[] = {
    {"__enter__", Enter, METH_NOARGS, "Starts counting; returns the session."},
    {"__exit__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Exit)), METH_FASTCALL,
     "Stops counting and reads the counts; an exception from the block goes on."},
    {"read", Read, METH_NOARGS, "The values now, a list of ints in the order of names."},
};

}  // namespace

void AddFastMethods(py::handle session_type) {
  auto *type = reinterpret_cast<PyTypeObject *>(session_type.ptr());
  for (PyMethodDef &method : kMethods) {
    py::object descriptor = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, &method));
    if (!descriptor ||
        PyObject_SetAttrString(session_type.ptr(), method.ml_name, descriptor.ptr()) != 0)
      throw py::error_already_set();
  }
}

}  // namespace pmapi_python
