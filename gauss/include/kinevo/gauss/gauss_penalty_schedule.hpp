// How the penalty weights W and multipliers lambda of the Gauss objective change between range
// runs: the GA's penalty concept (ga/penalty.hpp) with the Gauss defaults and one Gauss-specific
// setting, row-relative weights. The fixed schedule is the source document's (generalized-inverse
// dissertation (GIGSP), eq. 5.18, W = 1e6 I); its answer is the minimiser of Z1, which misses the
// constrained acceleration by O(1/w). The multiplier schedule is the augmented Lagrangian (method
// of multipliers): after each run lambda += 2 W (A a - b), so the answer converges to the
// constrained acceleration itself while W stays moderate.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>

#include "kinevo/ga/penalty.hpp"

namespace kinevo::gauss {

using ga::parse_penalty_kind;
using ga::penalty_kind;
using ga::to_string;

struct gauss_penalty_options : ga::penalty_options {
  // The Gauss defaults: multiplier updates, w = 1e6, increasing capped at 1e12 (H gets
  // ill-conditioned beyond).
  gauss_penalty_options() {
    kind = penalty_kind::multipliers;
    weight = 1e6;
    growth = 10.0;
    max_weight = 1e12;
  }
  // Row-relative weights: w_i = weight / (A_i M^-1 A_i^T), so that every constraint stiffens
  // H = M + 2 A^T W A by the same factor whatever the units of its row and the masses it
  // moves (the solver passes the row scales 1 / (A_i M^-1 A_i^T) each solve). Off: absolute
  // weights, as eq. 5.18 gives them.
  bool relative = false;
};

class gauss_penalty_schedule : public ga::penalty {
 public:
  // Throws std::invalid_argument when a weight is not positive or a named weight matches no
  // constraint (the message lists the constraint names).
  gauss_penalty_schedule(const gauss_penalty_options& options,
                         std::span<const std::string> constraint_names, int constraints)
      : ga::penalty(options, constraint_names, constraints) {}

  // Row scales s_i (> 0) multiplying the initial weights, for the relative schedule; resets
  // the weights to initial * s.
  void set_row_scales(const Eigen::VectorXd& scales) { set_weight_scales(scales); }
};

}  // namespace kinevo::gauss
