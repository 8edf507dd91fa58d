// What the parts of the Python module share: each part adds its functions and classes to the
// module, and every result object reports itself as text and as a dict through to_json().
#pragma once

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

namespace kinevo::python {

namespace py = pybind11;

// json.loads of the library's JSON: a plain dict of Python numbers, strings and lists.
py::object to_python(const nlohmann::json& j);

// kinevo.Summary (core::summary): how a run ended, as every result's `summary`.
void add_summary(py::module_& m);
void add_optimization(py::module_& m);
void add_mechanics(py::module_& m);
// After add_mechanics: its signatures name Model and SimulationResult.
void add_simulator(py::module_& m);
void add_synthesis(py::module_& m);

}  // namespace kinevo::python
