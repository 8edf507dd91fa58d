// How the penalty weights W and multipliers lambda of the Gauss objective change between range
// runs. The fixed schedule is the seed's (generalized-inverse dissertation (GIGSP), eq. 5.18,
// W = 1e6 I); its answer is the minimiser of Z1, which misses the constrained acceleration by
// O(1/w). The multiplier schedule is the augmented Lagrangian (method of multipliers):
// after each run lambda += 2 W (A a - b), so the answer converges to the constrained
// acceleration itself while W stays moderate.
#pragma once

#include <Eigen/Core>
#include <map>
#include <span>
#include <string>

namespace kinevo::gauss {

enum class penalty_kind {
  fixed,        // W constant, lambda = 0 (the seed)
  increasing,   // W *= growth after each run, up to max_weight; lambda = 0
  multipliers,  // W constant, lambda += 2 W (A a - b) after each run
};

// "fixed", "increasing", "multipliers"; throws std::invalid_argument listing the choices.
penalty_kind parse_penalty_kind(const std::string& name);
std::string to_string(penalty_kind kind);

struct gauss_penalty_options {
  penalty_kind kind = penalty_kind::multipliers;
  double weight = 1e6;  // w_i for every constraint not named in `named_weights`
  std::map<std::string, double> named_weights;  // w_i by constraint name
  double growth = 10.0;                         // increasing: factor per run
  double max_weight = 1e12;                     // increasing: cap (H gets ill-conditioned beyond)
  // Row-relative weights: w_i = weight / (A_i M^-1 A_i^T), so that every constraint stiffens
  // H = M + 2 A^T W A by the same factor whatever the units of its row and the masses it
  // moves (the solver passes the row scales 1 / (A_i M^-1 A_i^T) each solve). Off: absolute
  // weights, as eq. 5.18 gives them.
  bool relative = false;
};

class gauss_penalty_schedule {
 public:
  // Throws std::invalid_argument when a weight is not positive or a named weight matches no
  // constraint (the message lists the constraint names).
  gauss_penalty_schedule(const gauss_penalty_options& options,
                         std::span<const std::string> constraint_names, int constraints);

  const Eigen::VectorXd& weights() const { return weights_; }
  const Eigen::VectorXd& multipliers() const { return multipliers_; }
  // Called after each run with the residual A a - b of the run's best acceleration.
  void after_run(const Eigen::VectorXd& residual);
  // Starts the next solve from the initial weights (multipliers are kept: they warm-start
  // the next step as the acceleration does).
  void restart_weights();
  // Row scales s_i (> 0) multiplying the initial weights, for the relative schedule; resets
  // the weights to initial * s.
  void set_row_scales(const Eigen::VectorXd& scales);
  // Warm start of the multipliers (ignored unless the size matches and the schedule updates
  // multipliers).
  void set_multipliers(const Eigen::VectorXd& lambda);
  penalty_kind kind() const { return options_.kind; }

 private:
  gauss_penalty_options options_;
  Eigen::VectorXd initial_weights_;
  Eigen::VectorXd row_scales_;
  Eigen::VectorXd weights_;
  Eigen::VectorXd multipliers_;
};

}  // namespace kinevo::gauss
