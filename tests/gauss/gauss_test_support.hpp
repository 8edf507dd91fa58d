// Helpers shared by several test files of test_gauss (one definition, so that the files can be
// compiled together in a unity batch).
#pragma once

#include <Eigen/Core>
#include <algorithm>

#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::test {

// max |a - ref| / max(1, max |ref|): the contract of issue "Gauss by GA on every model" is
// scaled_error(a_ga, a_gigsp) <= 1e-9.
inline double scaled_error(const Eigen::VectorXd& a, const Eigen::VectorXd& ref) {
  return (a - ref).cwiseAbs().maxCoeff() / std::max(1.0, ref.cwiseAbs().maxCoeff());
}

// The model's constrained system at its initial state.
inline mechanics::constrained_system initial_system(const mechanics::model& m) {
  return m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
}

}  // namespace kinevo::test
