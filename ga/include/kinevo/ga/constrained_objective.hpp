// A constrained_problem as the ga::problem of one constraint handling:
//   penalty, multipliers  value = f + sum_i (lambda_i r_i + w_i r_i^2) (ga/penalty.hpp), with
//                         r_i = max(0, g_i) or h_i; no violation reported;
//   feasibility, epsilon  value = f and the total violation
//                         sum_i max(0, g_i - sigma) + sum_i max(0, |h_i| - delta),
//                         delta the equality tolerance (1e-4 in CEC 2006: Liang et al., "Problem
//                         definitions and evaluation criteria for the CEC 2006 special session
//                         on constrained real-parameter optimization", sec. 1) and sigma the
//                         inequality tolerance (0 in CEC 2006).
// Whatever the handling, a point is feasible when every g_i <= sigma and every |h_i| <= delta:
// the verdict that the result reports.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kinevo/ga/constrained_problem.hpp"
#include "kinevo/ga/constraint_handling.hpp"
#include "kinevo/ga/penalty.hpp"
#include "kinevo/ga/problem.hpp"

namespace kinevo::ga {

struct constraint_options {
  constraint_handling method = constraint_handling::feasibility;
  // delta >= 0 (finite): |h| <= delta satisfies an equality.
  double equality_tolerance = 1e-4;
  // sigma >= 0 (finite): g <= sigma satisfies an inequality.
  double inequality_tolerance = 0.0;
  // Weights of penalty and multipliers; kind is set from the method (fixed for penalty,
  // multipliers for multipliers) unless it is increasing.
  penalty_options penalty;

  // Throws io::option_error naming "equality_tolerance", "inequality_tolerance" or the penalty
  // field.
  void validate() const;
};

class constrained_objective : public problem {
 public:
  // Keeps a reference to p, which must outlive this object.
  constrained_objective(const constrained_problem& p, const constraint_options& options);

  int dimension() const override { return p_.dimension(); }
  Eigen::VectorXd lower_bounds() const override { return p_.lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return p_.upper_bounds(); }
  std::string name() const override { return p_.name(); }
  std::vector<int> integer_variables() const override { return p_.integer_variables(); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  bool reports_violation() const override { return compares_violations(options_.method); }
  void evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values,
                               Eigen::Ref<Eigen::VectorXd> violations) const override;

  // Per-constraint violations at x: max(0, g_i - sigma) and max(0, |h_i| - delta).
  Eigen::VectorXd violations(const Eigen::VectorXd& x) const;
  // Their largest entry (0: feasible) and the verdict.
  double max_violation(const Eigen::VectorXd& x) const;
  bool feasible(const Eigen::VectorXd& x) const { return max_violation(x) == 0.0; }

  const constraint_options& options() const { return options_; }
  // The penalty of penalty and multipliers (weights, multipliers); scales multiply the weights
  // per constraint (e.g. weights given in a problem file).
  const ga::penalty& constraint_penalty() const { return penalty_; }
  void set_weight_scales(const Eigen::VectorXd& scales) { penalty_.set_weight_scales(scales); }
  // Between runs (range runs): multipliers update lambda from the violations r_i at the run's
  // best point; other methods do nothing.
  void after_run(const Eigen::VectorXd& best_x);

 private:
  // Violation of constraint i at value c (tolerance subtracted).
  double violation(Eigen::Index i, double c) const {
    return equality_[static_cast<std::size_t>(i)]
               ? std::max(0.0, std::abs(c) - options_.equality_tolerance)
               : std::max(0.0, c - options_.inequality_tolerance);
  }
  // Raw constraint values at the columns of x (constraint_count() x cols) and the objective.
  void constraint_values(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::VectorXd& f,
                         Eigen::MatrixXd& c) const;

  const constrained_problem& p_;
  constraint_options options_;
  ga::penalty penalty_;
  std::vector<char> equality_;
};

}  // namespace kinevo::ga
