// The Python module `kinevo` (pybind11): the GA on a Python objective and on problem files,
// models (load, accelerations, simulation) and linkage synthesis. Native work runs without the
// GIL; the library's exceptions arrive in Python with the library's message:
//   io::input_error  -> kinevo.InputError (a ValueError: bad file contents, naming file and line)
//   io::option_error -> ValueError (an option out of range, naming it)
//   other std::exception -> RuntimeError (pybind11's default).
#include <pybind11/pybind11.h>

#include <string>

#include "kinevo/core/outcome.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/summary_json.hpp"
#include "python/bindings.hpp"

namespace kinevo::python {

py::object to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

void add_summary(py::module_& m) {
  using core::summary;
  py::class_<summary>(m, "Summary",
                      "How a run ended, the same for every result (the CLI's exit status)")
      .def_property_readonly("status", &summary::status,
                             "The result's status word (ok, infeasible, not_assembled, ...)")
      .def_property_readonly(
          "termination", [](const summary& s) { return std::string(core::to_string(s.end)); },
          "ok, not_converged, infeasible, failed or interrupted")
      .def_readonly("message", &summary::message, "What the user must read ('' when ok)")
      .def_property_readonly("usable", &summary::usable,
                             "True when the answer may be used as it stands")
      .def_property_readonly(
          "exit_status", [](const summary& s) { return core::exit_status(s); },
          "The exit status `kinevo` gives this outcome: 0, 1 or 130")
      .def("brief_report", &summary::brief_report, "One line: status, message, figures")
      .def("full_report", &summary::full_report, "One line a field")
      .def(
          "to_dict", [](const summary& s) { return to_python(io::to_json(s)); },
          "status, termination, message, usable, exit_status and the figures present")
      .def("__repr__",
           [](const summary& s) { return "<kinevo.Summary " + s.brief_report() + ">"; });
}

}  // namespace kinevo::python

PYBIND11_MODULE(kinevo, m) {
  namespace py = pybind11;
  m.doc() =
      "kinevo: the island-model GA, constrained multibody models and linkage synthesis "
      "(docs/python.md)";
  m.attr("__version__") = KINEVO_VERSION;
  static py::exception<kinevo::io::input_error> input_error(m, "InputError", PyExc_ValueError);
  input_error.attr("__doc__") =
      "Bad input file contents or table rows (a ValueError); the message names the file, the "
      "line and the field, as the command line's does";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kinevo::io::input_error& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    }
  });
  kinevo::python::add_summary(m);
  kinevo::python::add_optimization(m);
  kinevo::python::add_mechanics(m);
  kinevo::python::add_simulator(m);
  kinevo::python::add_synthesis(m);
}
