// Least squares through Householder reflections (Eigen's QR), never the normal equations:
// Angeles et al., Diseño cinemático de maquinaria (1984), Householder paper, eqs. (1)-(10).
// Overdetermined linear systems, minimum-norm solutions of underdetermined ones, and the
// least-squares Newton step (Gauss-Newton itself: gauss_newton.hpp).
#pragma once

#include <Eigen/Core>
#include <optional>

#include "kinevo/core/outcome.hpp"

namespace kinevo::numerics {

struct linear_least_squares_result {
  Eigen::VectorXd x;
  Eigen::VectorXd residual;  // A x - b
  double residual_norm = 0.0;
  int rank = 0;  // numerical rank from the pivoted QR
  // ok; failed with reason "rank_deficient" when rank < n: the minimiser is then not unique, so
  // x, residual and residual_norm are empty or zero and the message says why (a result, not an
  // exception: docs/architecture.md, "Errors").
  core::summary summary;
};

// Minimises ||A x - b|| (m >= n) by column-pivoted Householder QR. A rank-deficient A gives a
// failed summary (above); io::option_error when the sizes disagree or A or b holds NaN or inf.
linear_least_squares_result linear_least_squares(const Eigen::MatrixXd& a,
                                                 const Eigen::VectorXd& b);

// The solution of A x = b (m < n, full row rank) of least Euclidean norm, through the QR of A^T:
// A^T = Q R gives x = Q [R^-T b; 0]. No value when A is rank deficient (no unique least-norm
// step: the caller's iteration stops there); io::option_error when the sizes disagree or A or b
// holds NaN or inf; no equations (m = 0) give x = 0.
std::optional<Eigen::VectorXd> minimum_norm_solution(const Eigen::MatrixXd& a,
                                                     const Eigen::VectorXd& b);

// The least-squares step of damped_newton's step-solver form: J dx = -f by Householder
// reflections (HECOMP/HOLVE; 7R paper eq. (10a)), refused (false) when some |R_ii| is at most
// 1e-13 times the largest.
bool householder_step(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& f,
                      Eigen::VectorXd& dx);

}  // namespace kinevo::numerics
