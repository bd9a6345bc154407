// SPDX-License-Identifier: MIT
// pmapi._pmapi: the compiled part of the pmapi package. Count, Session and the catalog calls
// over the public C API; the package (pmapi/__init__.py) adds the Pythonic front.
#include "bench_calls.h"
#include "catalog.h"
#include "errors.h"
#include "fast_methods.h"
#include "mpi_summary.h"
#include "session.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>

namespace py = pybind11;
using pmapi_python::Session;

namespace {

std::string CountRepr(const pm_session_count_t &c) {
  std::string text = "Count(" + std::to_string(c.value);
  if (c.scaled) text += ", scaled from " + std::to_string(c.raw);
  return text + ", enabled=" + std::to_string(c.enabled) +
         ", running=" + std::to_string(c.running) + ")";
}

py::dict Values(const std::vector<std::string> &names,
                const std::vector<pm_session_count_t> &counts) {
  py::dict values;
  for (size_t i = 0; i < names.size(); ++i) values[py::str(names[i])] = py::cast(counts[i]);
  return values;
}

py::list PerCpu(Session &s) {
  if (s.scope() != "system") throw py::value_error("per-CPU counts need scope=\"system\"");
  py::object topology = py::module_::import("pmapi._pmapi").attr("_cpu_topology");
  std::vector<pm_session_count_t> counts;
  py::list rows;
  for (int cpu : s.cpus()) {
    s.ReadCpu(cpu, counts);
    rows.append(py::make_tuple(topology(cpu), Values(s.names(), counts)));
  }
  return rows;
}

}  // namespace

PYBIND11_MODULE(_pmapi, m) {
  m.doc() = "libpmapi's counting session and catalog (the compiled part of the pmapi package)";
  pmapi_python::RegisterErrors();

  py::class_<pm_session_count_t>(m, "Count", "One event's count: an int, with how it was counted.")
      .def_readonly("value", &pm_session_count_t::value,
                    "The count: raw scaled to the enabled time when scaled is True.")
      .def_readonly("raw", &pm_session_count_t::raw, "What the kernel counted.")
      .def_readonly("enabled", &pm_session_count_t::enabled, "Nanoseconds the event was enabled.")
      .def_readonly("running", &pm_session_count_t::running, "Nanoseconds it was on a counter.")
      .def_property_readonly(
          "scaled", [](const pm_session_count_t &c) { return c.scaled != 0; },
          "True when value is the estimate raw * enabled / running.")
      .def("__int__", [](const pm_session_count_t &c) { return c.value; })
      .def("__index__", [](const pm_session_count_t &c) { return c.value; })
      .def("__float__", [](const pm_session_count_t &c) { return double(c.value); })
      .def("__eq__", [](const pm_session_count_t &c, unsigned long long v) { return c.value == v; })
      .def("__eq__",
           [](const pm_session_count_t &a, const pm_session_count_t &b) {
             return a.value == b.value && a.raw == b.raw && a.enabled == b.enabled &&
                    a.running == b.running && a.scaled == b.scaled;
           })
      .def("__hash__", [](const pm_session_count_t &c) { return py::hash(py::int_(c.value)); })
      .def("__repr__", &CountRepr);

  py::class_<Session> session(m, "Session", "A counting session: events counted on a target.");
  // __init__, __enter__, __exit__ and read are AddFastMethods'.
  session.def("start", &Session::Start, "Start (or resume) counting.")
      .def("stop", &Session::Stop, "Stop counting and read the counts.")
      .def("reset", &Session::Reset, "Counts and elapsed time back to zero.")
      .def("close", &Session::Close,
           "Stops and closes every descriptor now, without the GIL for a large session; the "
           "counts stay readable. (Otherwise they close when the object goes.)")
      .def_property_readonly("names", &Session::names,
                             "The events, with their modifiers, in order.")
      .def_property_readonly(
          "counts",
          [](Session &s) {
            s.Refresh();
            return s.counts();
          },
          "The Count of each event, in the order of names.")
      .def_property_readonly(
          "values",
          [](Session &s) {
            s.Refresh();
            return Values(s.names(), s.counts());
          },
          "A dict: event name -> Count (read now while counting, else the counts at the stop).")
      .def_property_readonly(
          "metrics",
          [](Session &s) {
            s.Refresh();
            py::dict metrics;
            for (const auto &[name, value] : s.Metrics()) metrics[py::str(name)] = value;
            return metrics;
          },
          "The group's derived metrics (empty unless a group was counted); NaN where undefined.")
      .def_property_readonly(
          "group",
          [](const Session &s) -> py::object {
            if (s.group_id() < 0) return py::none();
            return py::str(s.group_name());
          },
          "The group's name when one was counted, else None.")
      .def_property_readonly("scope", &Session::scope)
      .def_property_readonly("cpus", &Session::cpus, "The dense CPU ids counted (scope system).")
      .def_property_readonly("counting", &Session::counting, "True between start and stop.")
      .def_property_readonly("elapsed", &Session::Elapsed,
                             "Seconds counted, over every start and stop.")
      .def("_per_cpu", &PerCpu)
      .def("_run_command", &Session::RunCommand, py::arg("argv"));
  pmapi_python::AddFastMethods(session);

  pmapi_python::BindCatalog(m);
  pmapi_python::BindBenchCalls(m);
  pmapi_python::BindMpiSummary(m);
}
