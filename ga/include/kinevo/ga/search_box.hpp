// The box a run searches. It need not be the problem's own bounds: range runs search shrinking
// boxes around the best point so far.
#pragma once

#include <Eigen/Core>

#include "kinevo/ga/problem.hpp"

namespace kinevo::ga {

struct search_box {
  Eigen::VectorXd lower;
  Eigen::VectorXd upper;

  int dimension() const { return static_cast<int>(lower.size()); }
  Eigen::VectorXd centre() const { return 0.5 * (lower + upper); }
  Eigen::VectorXd radii() const { return 0.5 * (upper - lower); }

  // The problem's default bounds.
  static search_box of(const problem& p);
  // [centre - radii, centre + radii].
  static search_box around(const Eigen::VectorXd& centre, const Eigen::VectorXd& radii);

  // Throws std::invalid_argument naming the first bad variable (sizes differ from `dimension`,
  // non-finite bound, or lower >= upper).
  void validate(int dimension) const;
};

}  // namespace kinevo::ga
