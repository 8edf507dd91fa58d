// `kinevo optimize --method sanlsu` and the memetic `--refine sanlsu`: a problem file's
// equality-constrained problem handed to SANLSU gradient projection (gradient_projection.hpp),
// either from one start point or from the GA's best, reporting itself (text and JSON).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/optimization/gradient_projection.hpp"
#include "kinevo/optimization/optimization_run.hpp"
#include "kinevo/optimization/optimize_options.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"

namespace kinevo::optimization {

// A problem file as SANLSU's z(x) on h(x) = 0, with the exact derivatives the file's
// expressions give. The file's bounds are not constraints here (the result says whether the
// answer lies in the box).
class expression_equality_problem : public equality_constrained_problem {
 public:
  // Throws io::input_error naming the file when a constraint is an inequality (SANLSU handles
  // equalities; no active-set extension), a variable is integer or discrete, or the file has no
  // constraint or as many constraints as variables.
  explicit expression_equality_problem(std::shared_ptr<const symbolic::expression_problem> p,
                                       std::string file);
  int dimension() const override;
  int constraint_count() const override;
  std::string constraint_name(int i) const override;
  double objective(const Eigen::VectorXd& x) const override;
  Eigen::VectorXd constraints(const Eigen::VectorXd& x) const override;
  void derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& gradient,
                   Eigen::MatrixXd& jacobian) const override;
  std::optional<Eigen::MatrixXd> constant_hessian() const override;

  const symbolic::expression_problem& expressions() const { return *p_; }
  // start if given (one value per variable), else the file's `initial` values, a variable
  // without one starting at the centre of its bounds. Throws io::option_error (key start) for
  // a wrong count.
  Eigen::VectorXd start_point(const std::vector<double>& start) const;

 private:
  std::shared_ptr<const symbolic::expression_problem> p_;
};

struct sanlsu_run {
  std::string function;  // the problem's name
  std::string file;
  std::vector<std::string> variables, constraints;
  std::optional<optimization_run> ga;  // the memetic run's global search
  gradient_projection_result sanlsu;
  bool inside_bounds = true;  // the answer lies in the file's box
  std::vector<double> constraint_values;

  // SANLSU's summary with failure_message() as its message: not ok when SANLSU did not
  // converge to a minimum (exit 1; with the GA, its answer is still reported). The GA's
  // infeasible answer refined by a converged SANLSU is ok (its note still says so).
  core::summary summary;
  // SANLSU did not converge to a minimum.
  bool failed() const { return !sanlsu.ok(); }
  std::string failure_message() const;
  // What the user must read on stderr after the report: the failure message, else the GA's
  // infeasible answer as "error: ..."; none otherwise.
  std::optional<std::string> outcome_note() const;
  std::string full_report() const;
  // Without the GA: function, problem, variables, constraint_names, dim, best_x, best_value,
  // lambda, iterations, status, ... (gradient_projection_result::to_json) and
  // constraint_values, inside_bounds. With the GA: the GA's keys (optimization_run::to_json)
  // with best_x and best_value the refined answer when it converged, ga_best_x and
  // ga_best_value the GA's, and refinement (SANLSU's object), lambda, iterations, status.
  nlohmann::json to_json() const;
};

// --method sanlsu. Throws io::input_error (problem file), io::option_error (options).
sanlsu_run run_sanlsu(const optimize_options& o);
// --refine sanlsu: SANLSU from the GA run's best (decoded) point.
sanlsu_run refine_with_sanlsu(const optimize_options& o, optimization_run ga);

}  // namespace kinevo::optimization
