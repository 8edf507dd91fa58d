// Least squares through Householder reflections (Eigen's QR), never the normal equations:
// Angeles et al., Diseño cinemático de maquinaria (1984), Householder paper, eqs. (1)-(10).
// Overdetermined linear systems, minimum-norm solutions of underdetermined ones, and
// Gauss-Newton for nonlinear systems f(x) = 0 with more equations than unknowns.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>

#include "kinevo/core/outcome.hpp"

namespace kinevo::synthesis {

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

struct gauss_newton_options {
  double tol_x = 1e-10;  // stop when ||dx|| <= tol_x (1 + ||x||)
  int max_iterations = 100;
  int max_halvings = 30;  // step halvings while ||f|| does not fall
};

struct gauss_newton_result {
  Eigen::VectorXd x;
  double residual_norm = 0.0;  // ||f(x)||
  int iterations = 0;
  bool converged = false;
  std::string message;  // why it stopped when not converged
};

// f(x) into f (size m) and, when jacobian is non-null, df/dx (m x n) into it.
using residual_function =
    std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::MatrixXd* jacobian)>;

// Gauss-Newton: each correction is the Householder least-squares solution of J dx = -f
// (Householder paper, eqs. (4)-(6)), halved while ||f|| does not decrease.
gauss_newton_result gauss_newton(const residual_function& f, const Eigen::VectorXd& x0,
                                 const gauss_newton_options& options = {});

}  // namespace kinevo::synthesis
