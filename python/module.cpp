// The Python module `kinevo` (pybind11): the GA on a Python objective and on problem files,
// models (load, accelerations, simulation) and linkage synthesis. Native work runs without the
// GIL; the library's exceptions arrive in Python with the library's message:
//   io::input_error  -> kinevo.InputError (a ValueError: bad file contents, naming file and line)
//   io::option_error -> ValueError (an option out of range, naming it)
//   other std::exception -> RuntimeError (pybind11's default).
#include <pybind11/pybind11.h>

#include <string>

#include "kinevo/io/errors.hpp"
#include "python/bindings.hpp"

namespace kinevo::python {

py::object to_python(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
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
  kinevo::python::add_optimization(m);
  kinevo::python::add_mechanics(m);
  kinevo::python::add_simulator(m);
  kinevo::python::add_synthesis(m);
}
