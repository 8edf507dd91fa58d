// Penalties for constraints handled by a GA (one concept for every constrained problem the GA
// solves: the Gauss objective, linkage synthesis, expression problems). A constrained problem
// is minimised as
//     f(x) + sum_i ( lambda_i r_i(x) + w_i r_i(x)^2 ),
// with r_i the violation of constraint i (h_i(x) for an equality, max(0, g_i(x)) for g_i <= 0),
// weights w_i and multipliers lambda_i. Between GA runs (range runs, restarts) the penalty
// changes according to its kind:
//   fixed        w constant, lambda = 0 (the generalized-inverse dissertation (GIGSP), eq. 5.18:
//                W = 1e6 I); the answer misses the constrained minimiser by O(1/w);
//   increasing   w *= growth after each run, up to max_weight; lambda = 0 (the classical
//                exterior penalty: a four-bar GA with weight 1 and a growth factor per run);
//   multipliers  w constant, lambda += 2 W r after each run (augmented Lagrangian, method of
//                multipliers: Nocedal and Wright, Numerical Optimization, 2nd ed., eq. 17.39
//                with mu = 1 / (2 w)); the answer converges to the constrained minimiser while w
//                stays moderate.
// Weights are per constraint: `weight` for every constraint, `named_weights` by name.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <map>
#include <span>
#include <string>

namespace kinevo::ga {

enum class penalty_kind { fixed, increasing, multipliers };

// "fixed", "increasing", "multipliers"; parse throws std::invalid_argument listing the choices.
std::string to_string(penalty_kind kind);
penalty_kind parse_penalty_kind(const std::string& name);

struct penalty_options {
  penalty_kind kind = penalty_kind::fixed;
  double weight = 1.0;                          // w_i of every constraint not named below
  std::map<std::string, double> named_weights;  // w_i by constraint name
  double growth = 10.0;                         // increasing: factor per run, > 1
  // increasing: cap of every weight (> 0; may be infinite). A cap keeps the penalised problem
  // from getting ill-conditioned.
  double max_weight = std::numeric_limits<double>::infinity();

  // Throws io::option_error naming the field ("penalty.weight", "penalty.growth",
  // "penalty.max_weight", "penalty.named_weights[name]") and the allowed range.
  void validate() const;
};

class penalty {
 public:
  // Validates the options; throws std::invalid_argument when a named weight matches none of
  // `constraint_names` (the message lists them). `constraints` is the number of constraints
  // (names may be fewer: unnamed constraints take `weight`).
  penalty(const penalty_options& options, std::span<const std::string> constraint_names,
          int constraints);

  const Eigen::VectorXd& weights() const { return weights_; }
  const Eigen::VectorXd& multipliers() const { return multipliers_; }
  penalty_kind kind() const { return options_.kind; }
  const penalty_options& options() const { return options_; }

  // sum_i lambda_i r_i + w_i r_i^2 for the violations r (one per constraint).
  double term(const Eigen::Ref<const Eigen::VectorXd>& violations) const;

  // After a run, with the violations of the run's best point: grows the weights (increasing)
  // or updates the multipliers (multipliers).
  void after_run(const Eigen::VectorXd& violations);
  // Back to the initial weights (times the scales); multipliers are kept (a warm start).
  void restart_weights();
  // Positive per-constraint scales multiplying the initial weights (e.g. to make weights
  // relative to the units of each constraint); resets the weights to initial * scales.
  void set_weight_scales(const Eigen::VectorXd& scales);
  // Warm start of the multipliers (ignored unless the size matches, they are finite and the
  // kind updates multipliers).
  void set_multipliers(const Eigen::VectorXd& lambda);

 private:
  penalty_options options_;
  Eigen::VectorXd initial_weights_;
  Eigen::VectorXd scales_;
  Eigen::VectorXd weights_;
  Eigen::VectorXd multipliers_;
};

}  // namespace kinevo::ga
