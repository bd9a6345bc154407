// SPDX-License-Identifier: MIT
#include "fast_methods.h"

#include "errors.h"
#include "session.h"

#include <limits.h>

#include <optional>
#include <string>
#include <vector>

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

// `value` as a std::string, or false with TypeError set naming `what`.
bool TextOf(PyObject *value, const char *what, std::string &out) {
  Py_ssize_t size = 0;
  const char *text = PyUnicode_Check(value) ? PyUnicode_AsUTF8AndSize(value, &size) : nullptr;
  if (!text) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s must be a str", what);
    return false;
  }
  out.assign(text, size_t(size));
  return true;
}

// `value` (any iterable of ints) as CPU ids, or false with the Python error set.
bool CpusOf(PyObject *value, std::vector<int> &out) {
  PyObject *items = PySequence_Fast(value, "cpus must be an iterable of ints");
  if (!items) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
  out.reserve(size_t(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    int overflow = 0;
    long cpu = PyLong_AsLongAndOverflow(PySequence_Fast_GET_ITEM(items, i), &overflow);
    if (cpu == -1 && PyErr_Occurred()) break;
    if (overflow || cpu < INT_MIN || cpu > INT_MAX) {
      PyErr_SetString(PyExc_OverflowError, "a CPU id is out of range");
      break;
    }
    out.push_back(int(cpu));
  }
  Py_DECREF(items);
  return !PyErr_Occurred();
}

// Session(events=None, scope="thread", cpus=None), as the generic constructor binding would
// make it: the Session in the instance's value slot, then its holder and registration.
PyObject *Init(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static const char *const kNames[] = {"events", "scope", "cpus"};
  PyObject *given[3] = {Py_None, nullptr, Py_None};
  if (nargs > 3) {
    PyErr_Format(PyExc_TypeError, "Session() takes at most 3 arguments (%zd given)", nargs);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) given[i] = args[i];
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    size_t slot = 0;
    while (slot < 3 && PyUnicode_CompareWithASCIIString(name, kNames[slot]) != 0) ++slot;
    if (slot == 3 || Py_ssize_t(slot) < nargs) {
      PyErr_Format(PyExc_TypeError, "Session() got %s argument '%U'",
                   slot == 3 ? "an unexpected keyword" : "multiple values for", name);
      return nullptr;
    }
    given[slot] = args[nargs + k];
  }
  std::optional<std::string> events;
  std::string scope = "thread";
  std::vector<int> cpus;
  if (given[0] != Py_None && !TextOf(given[0], "events", events.emplace())) return nullptr;
  if (given[1] && !TextOf(given[1], "scope", scope)) return nullptr;
  if (given[2] != Py_None && !CpusOf(given[2], cpus)) return nullptr;

  static py::detail::type_info *const session_type = py::detail::get_type_info(typeid(Session));
  auto *instance = reinterpret_cast<py::detail::instance *>(self);
  py::detail::value_and_holder held = instance->get_value_and_holder(session_type, true);
  if (held.instance_registered()) Py_RETURN_NONE;  // a second __init__: ignored, as pybind11 does
  try {
    held.value_ptr() = new Session(events, scope, cpus);
  } catch (...) {
    return Raised();
  }
  held.type->init_instance(instance, nullptr);
  Py_RETURN_NONE;
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
    {"__init__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(Init)),
     METH_FASTCALL | METH_KEYWORDS,
     "Session(events=None, scope=\"thread\", cpus=None): the events (a list, a group's name, "
     "None for the default group) on a scope (\"thread\", \"process\", \"system\" on cpus, "
     "any iterable of dense CPU ids)."},
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
