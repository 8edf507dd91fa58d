// Plain (undamped) Newton-Raphson with the caller's step, as in Haug, Computer Aided Kinematics
// and Dynamics of Mechanical Systems, sec. 4.5: J(x^i) dx = -f(x^i), x^(i+1) = x^i + dx, until
// max |f(x^i)| <= tol_f and max |dx| <= tol_x. No line search: a kinematic analysis judges the
// convergence (quadratic, linear at a singular root) from the unshortened iterates, which a
// damped step would disguise. The member of the family (damped_newton.hpp) for that use.
#pragma once

#include <Eigen/Core>
#include <functional>

#include "kinevo/numerics/newton_options.hpp"
#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::numerics {

// f(x) into f and the Newton step dx (J(x) dx = -f) into dx. Returns false when f or J is NaN
// or infinite (the iteration ends there, status non_finite, without counting the iteration).
using newton_step_function =
    std::function<bool(const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::VectorXd& dx)>;

// Called with every iterate: x^i, f(x^i) and the step from it (before the step is checked).
using newton_observer = std::function<void(const Eigen::VectorXd& x, const Eigen::VectorXd& f,
                                           const Eigen::VectorXd& dx)>;

// From x0: converged as above (x is then x^i + dx of the last iterate); non_finite when the
// step function refuses or a step is NaN or infinite; diverged when a step exceeds
// 1e10 (1 + max |x0|), growth without bound rather than a search; max_iterations otherwise.
// Uses tol_x, tol_f and max_iterations of `options`; residual is max |f| of the last iterate.
newton_result newton_raphson(const newton_step_function& step, Eigen::VectorXd x0,
                             const newton_options& options, const newton_observer& observe = {});

}  // namespace kinevo::numerics
