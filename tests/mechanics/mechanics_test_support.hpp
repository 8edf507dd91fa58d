// Helpers shared by several test files of test_mechanics (one definition, so that the files can
// be compiled together in a unity batch): the examples folder, text files, loading and running
// models.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::test {

// The examples folder (KINEVO_EXAMPLES).
inline const std::string examples = KINEVO_EXAMPLES;

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The example files that are models (they declare coordinates, particles or bodies; the others
// are problem, cam or chain files), in name order.
inline std::vector<std::filesystem::path> example_model_paths() {
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(examples)) {
    if (e.path().extension() != ".toml") continue;
    const std::string text = read_text(e.path().string());
    if (text.find("[[coordinate]]") != std::string::npos ||
        text.find("[[particle]]") != std::string::npos ||
        text.find("[[body]]") != std::string::npos) {
      paths.push_back(e.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// The core's max_abs (a vector or a matrix); a VectorXd-only one here once took a matrix
// expression's first column in a release build.
using kinevo::max_abs;

// The text of examples/`name`.
inline std::string read_example(const std::string& name) {
  return read_text(std::string(KINEVO_EXAMPLES) + "/" + name);
}

// A model from text whose initial state need not satisfy its constraints.
inline mechanics::model load_unassembled(const std::string& text, const std::string& source) {
  mechanics::model_options o;
  o.require_assembled = false;
  return mechanics::load_model_from_string(text, source, o);
}

// The message of loading the model text `text` ("(no error)" when it loads).
inline std::string error_of(const std::string& text, const mechanics::model_options& o = {}) {
  try {
    (void)mechanics::load_model_from_string(text, "bad.toml", o);
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "(no error)";
}

// A run of `m` in formulation `kind` with `solver`, records every `dt` up to `t_end`.
inline mechanics::simulation_result run_formulation(
    const mechanics::model& m, mechanics::formulation_kind kind, double t_end, double dt,
    const std::string& solver = "gigsp",
    mechanics::stabilization_kind stabilization = mechanics::stabilization_kind::none) {
  auto s = mechanics::make_solver(solver);
  mechanics::simulation_options o;
  o.t_end = t_end;
  o.dt = dt;
  o.formulation.kind = kind;
  o.stabilization = stabilization;
  return mechanics::simulate(m, *s, o);
}

}  // namespace kinevo::test
