// What the mechanics bindings share (model_bindings.cpp, simulator_bindings.cpp): the model
// argument every function takes and the result class of a simulation.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "kinevo/mechanics/dynamics/simulation_result.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::python {

// A model file (str or pathlib.Path) or a loaded kinevo.Model.
using model_argument = std::variant<std::filesystem::path, mechanics::model>;

// The model of an argument: a file loaded with `set` and `kinematic`, or a Model already loaded
// (then `set` and `kinematic` are its own: giving them is a mistake, a ValueError).
mechanics::model model_of(const model_argument& model, const std::map<std::string, double>& set,
                          bool kinematic);

// The options of solver="ga" (Gauss' principle by the island GA): islands, seed and preset, as
// `--islands`, `--seed` and `--preset` of the CLI.
mechanics::solver_options solver_options_of(int islands, unsigned long long seed,
                                            const std::string& preset);

// kinevo.SimulationResult: a run's result and the names of its coordinates.
struct simulation_run {
  mechanics::simulation_result result;
  std::vector<std::string> coordinates;
};

}  // namespace kinevo::python
