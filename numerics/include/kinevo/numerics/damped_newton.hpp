// Damped Newton-Raphson for nonlinear systems f(x) = 0, after subroutine NRDAMP of Angeles et
// al., Diseño cinemático de maquinaria (1984): a Newton step shortened by the backtracking line
// search (backtracking.hpp) while the residual does not fall. Two forms:
//  - square systems, the step by LU with a condition estimate, ||f||_inf to lower, relative
//    tolerances, divergence when no step length lowers ||f||_inf (synthesis);
//  - the step solver passed in (LU for a closed chain, Householder least squares for an
//    overdetermined guidance system: 7R paper eq. (6)), ||f||_2 to lower, absolute tolerances,
//    and the shortest trial taken when none lowers it (the spatial-chain analysers).
#pragma once

#include <Eigen/Core>
#include <functional>

#include "kinevo/numerics/newton_options.hpp"
#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::numerics {

// Evaluates F(x) into f and, when jacobian is non-null, dF/dx into it. Returns false when x lies
// outside the domain of F (e.g. an infeasible point of a barrier function): such a trial step is
// treated like one that does not lower the residual and is shortened.
using system_function =
    std::function<bool(const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::MatrixXd* jacobian)>;

// f(x) into f (size m) and, when jacobian is non-null, df/dx (m x n) into it.
using residual_function =
    std::function<void(const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::MatrixXd* jacobian)>;

// Solves J dx = -f (exactly or in the least-squares sense); false when J has lost rank.
using step_solver = std::function<bool(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& f,
                                       Eigen::VectorXd& dx)>;

// Solves the square F(x) = 0 from x0 (which must lie in the domain; io::option_error
// otherwise). `stop_when`, if given, is called with every accepted iterate and ends the
// iteration early (status stopped) when it returns true. residual is ||F(x)||_inf.
newton_result damped_newton(const system_function& system, const Eigen::VectorXd& x0,
                            const newton_options& options = {},
                            const std::function<bool(const Eigen::VectorXd&)>& stop_when = {});

// Solves f(x) = 0 from x0 with the steps of `solve`: converged when max |dx| < tol_x and
// max |f| < tol_f, or when the residual ends below tol_f; singular_jacobian when `solve`
// refuses before that; max_iterations otherwise. residual is max |f(x)|.
newton_result damped_newton(const residual_function& f, Eigen::VectorXd x0,
                            const newton_options& options, const step_solver& solve);

// The square step of `solve` by partial-pivoting LU, refused unless Eigen's reciprocal
// condition estimate exceeds 1e-14.
bool lu_step(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& f, Eigen::VectorXd& dx);

}  // namespace kinevo::numerics
