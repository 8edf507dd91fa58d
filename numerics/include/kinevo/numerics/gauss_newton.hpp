// Gauss-Newton for nonlinear systems f(x) = 0 with more equations than unknowns: each
// correction the Householder least-squares solution of J dx = -f (Angeles et al., Diseño
// cinemático de maquinaria (1984), Householder paper, eqs. (4)-(6)), shortened by the
// backtracking line search (backtracking.hpp) while ||f||_2 rises.
#pragma once

#include <Eigen/Core>

#include "kinevo/numerics/damped_newton.hpp"  // residual_function
#include "kinevo/numerics/newton_options.hpp"
#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::numerics {

// Converged when a correction is at most tol_x (1 + ||x||_2) long, or when no step length lowers
// ||f||_2 and the correction is negligible (a least-squares minimum to working precision);
// singular_jacobian for a rank-deficient J, diverged when no step length lowers ||f||_2 away
// from a minimum, non_finite for a NaN residual. residual is ||f(x)||_2; tol_f is not used.
newton_result gauss_newton(const residual_function& f, const Eigen::VectorXd& x0,
                           const newton_options& options = newton_options::gauss_newton_defaults());

}  // namespace kinevo::numerics
