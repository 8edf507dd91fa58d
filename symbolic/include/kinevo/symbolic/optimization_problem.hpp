// `kinevo optimize --problem FILE`: a box-bounded problem written as expressions in a TOML
// file, compiled once into an evaluation tape. This module exports the compiled functions
// (objective, constraints, bounds, the penalty weights the file names); turning them into a
// GA problem (the penalty sum) is optimization/detail/expression_objective.hpp's work, so that
// symbolic/ does not depend on ga/. File format: docs/model-files.md, "Optimization problems".
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace kinevo::symbolic {

// A loaded problem file: variables with bounds, objective f and constraints g_i(x) <= 0 or
// h_i(x) = 0, each with the penalty weight the file gives it.
//
// Variables are real (the default), integer (whole numbers in [lower, upper]) or discrete (one of
// a listed set of values, such as standard stock sizes). The GA searches a box of real "genes";
// decode() turns genes into the variables' values, and every function of x below (evaluate,
// objective, constraint_values, max_violation) takes DECODED values: callers decode first.
class expression_problem {
 public:
  struct constraint_info {
    std::string name;
    bool equality = false;  // h(x) = 0; otherwise g(x) <= 0
    double weight = 0.0;
  };

  // A variable's `type` in the file. The GA sees an integer variable as a gene in the file's
  // [lower, upper] and a discrete one as an integer index into its values, searched in
  // [0, k - 1] for k values; decode() rounds both.
  enum class variable_kind { real, integer, discrete };

  int dimension() const;
  // The search box the GA sees, per gene: the file's bounds for real and integer variables
  // (integer bounds are whole numbers), [0, k - 1] (index space) for a discrete variable with k
  // values. For discrete variables these are NOT the bounds of the values themselves.
  Eigen::VectorXd lower_bounds() const;
  Eigen::VectorXd upper_bounds() const;
  std::string name() const;

  const std::vector<variable_kind>& variable_kinds() const;
  // True when any variable is integer or discrete (the GA must round those genes).
  bool has_integer_variables() const;
  // Per variable, the values a discrete variable takes (strictly increasing, at least two);
  // empty for real and integer variables.
  const std::vector<std::vector<double>>& discrete_values() const;

  // Genes (dimension() values in the search box above) to variable values: real genes are
  // copied; integer genes are rounded with std::nearbyint (round half to even in the default
  // rounding mode, so 12.5 -> 12 and 13.5 -> 14) and clamped to [lower, upper]; discrete genes
  // are rounded the same way, clamped to [0, k - 1] and replaced by that value in the list. A
  // NaN gene gives NaN. The pointer form allocates nothing (for hot loops) and may decode in
  // place (genes == x); the vector form throws std::invalid_argument on a size mismatch.
  Eigen::VectorXd decode(const Eigen::VectorXd& genes) const;
  void decode(const double* genes, double* x) const;

  // The compiled functions at one point x of DECODED values (dimension() values, see decode()):
  // out[0] = f(x), out[1 + i] = the i-th constraint's value. `out` holds outputs() values,
  // `scratch` scratch_size() values; thread-safe when every thread passes its own buffers.
  int outputs() const;
  int scratch_size() const;
  void evaluate(const double* x, double* out, double* scratch) const;

  const std::vector<std::string>& variable_names() const;
  const std::vector<constraint_info>& constraints() const;
  // The objective f(x) alone, and each constraint's value g_i(x) or h_i(x), at one point of
  // DECODED values (not genes: decode() first).
  double objective(const Eigen::VectorXd& x) const;
  Eigen::VectorXd constraint_values(const Eigen::VectorXd& x) const;
  // Largest violation at DECODED values: max(0, g_i) and |h_i| over all constraints (0 when
  // feasible).
  double max_violation(const Eigen::VectorXd& x) const;

  // Per variable, the file's optional `initial` value (a start point for local methods such as
  // gradient projection; the GA does not use it).
  const std::vector<std::optional<double>>& initial_values() const;

  // First derivatives at a point x of real values, exact (GiNaC differentiates the parsed
  // expressions, then the derivatives are compiled into a second tape): the objective's gradient
  // (dimension() values) and the constraints' Jacobian (one row per constraint, dimension()
  // columns). The tape is built on the first call (thread-safe); a derivative the tape cannot
  // compile throws io::input_error naming the file and the expression.
  void derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& objective_gradient,
                   Eigen::MatrixXd& constraint_jacobian) const;
  // The objective's Hessian when it is constant (every second derivative a number: a quadratic
  // objective ½ xᵀWx + bᵀx + c gives W), otherwise empty. Built with the derivative tape.
  std::optional<Eigen::MatrixXd> constant_objective_hessian() const;

  ~expression_problem();
  struct impl;
  explicit expression_problem(std::unique_ptr<impl> p);

 private:
  std::unique_ptr<impl> impl_;
};

using variable_kind = expression_problem::variable_kind;

// Loads a problem file. Throws io::input_error naming the file, line and field (unknown
// variable name, parse error, bad bounds, fractional integer bound, bad discrete values,
// unknown variable or constraint type, ...).
std::unique_ptr<expression_problem> load_optimization_problem(const std::filesystem::path& path);
std::unique_ptr<expression_problem> load_optimization_problem_from_string(
    const std::string& text, const std::string& source);

}  // namespace kinevo::symbolic
