// A tiny GIGSP-free reference for the tests: the constrained acceleration from the KKT system
//   [M A^T; A 0] [a; lambda] = [f; b]
// (generalized-inverse dissertation (GIGSP), eqs. 2.6-2.9). The matrix is symmetric but
// indefinite, which Eigen's LDLT does not promise to handle, so a full-pivoting LU solves it.
// A must have full row rank (drop redundant rows before calling).
#pragma once

#include <Eigen/Dense>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::test {

inline Eigen::VectorXd kkt_acceleration(const mechanics::constrained_system& s) {
  const int n = s.coordinates();
  const int m = s.constraints();
  Eigen::MatrixXd k = Eigen::MatrixXd::Zero(n + m, n + m);
  k.topLeftCorner(n, n) = s.mass;
  k.topRightCorner(n, m) = s.jacobian.transpose();
  k.bottomLeftCorner(m, n) = s.jacobian;
  Eigen::VectorXd r(n + m);
  r << s.force, s.rhs;
  return Eigen::FullPivLU<Eigen::MatrixXd>(k).solve(r).head(n);
}

}  // namespace kinevo::test
