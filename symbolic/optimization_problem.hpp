// `kinevo optimize --problem FILE`: a box-bounded problem written as expressions in a TOML
// file, compiled once into an evaluation tape. This module exports the compiled functions
// (objective, constraints, bounds, the penalty weights the file names); turning them into a
// GA problem (the penalty sum) is optimization/expression_objective.hpp's work, so that
// symbolic/ does not depend on ga/. File format: docs/model-files.md, "Optimization problems".
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace kinevo::symbolic {

// A loaded problem file: variables with bounds, objective f and constraints g_i(x) <= 0 or
// h_i(x) = 0, each with the penalty weight the file gives it.
class expression_problem {
 public:
  struct constraint_info {
    std::string name;
    bool equality = false;  // h(x) = 0; otherwise g(x) <= 0
    double weight = 0.0;
  };

  int dimension() const;
  Eigen::VectorXd lower_bounds() const;
  Eigen::VectorXd upper_bounds() const;
  std::string name() const;

  // The compiled functions at one point x (dimension() values): out[0] = f(x), out[1 + i] = the
  // i-th constraint's value. `out` holds outputs() values, `scratch` scratch_size() values;
  // thread-safe when every thread passes its own buffers.
  int outputs() const;
  int scratch_size() const;
  void evaluate(const double* x, double* out, double* scratch) const;

  const std::vector<std::string>& variable_names() const;
  const std::vector<constraint_info>& constraints() const;
  // The objective f(x) alone, and each constraint's value g_i(x) or h_i(x), at one point.
  double objective(const Eigen::VectorXd& x) const;
  Eigen::VectorXd constraint_values(const Eigen::VectorXd& x) const;
  // Largest violation: max(0, g_i) and |h_i| over all constraints (0 when feasible).
  double max_violation(const Eigen::VectorXd& x) const;

  ~expression_problem();
  struct impl;
  explicit expression_problem(std::unique_ptr<impl> p);

 private:
  std::unique_ptr<impl> impl_;
};

// Loads a problem file. Throws io::input_error naming the file, line and field (unknown
// variable name, parse error, bad bounds, unknown constraint type, ...).
std::unique_ptr<expression_problem> load_optimization_problem(const std::filesystem::path& path);
std::unique_ptr<expression_problem> load_optimization_problem_from_string(
    const std::string& text, const std::string& source);

}  // namespace kinevo::symbolic
