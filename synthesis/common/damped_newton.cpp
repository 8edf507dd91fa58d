#include "kinevo/synthesis/common/damped_newton.hpp"
#include "kinevo/io/errors.hpp"

#include <Eigen/LU>
#include <cmath>
#include <stdexcept>

namespace kinevo::synthesis {

std::string to_string(newton_status s) {
  switch (s) {
    case newton_status::converged:
      return "converged";
    case newton_status::singular_jacobian:
      return "singular Jacobian";
    case newton_status::diverged:
      return "diverged (no step length lowers the residual)";
    case newton_status::max_iterations:
      return "iteration limit reached";
    case newton_status::stopped:
      return "stopped";
  }
  return "unknown";
}

damped_newton_result damped_newton(const system_function& system, const Eigen::VectorXd& x0,
                                   const damped_newton_options& options,
                                   const std::function<bool(const Eigen::VectorXd&)>& stop_when) {
  const Eigen::Index n = x0.size();
  damped_newton_result r;
  r.x = x0;
  Eigen::VectorXd f(n), f_trial(n);
  Eigen::MatrixXd jac(n, n);
  if (!system(r.x, f, &jac)) throw io::option_error("x0", "is outside the domain (damped_newton)");
  r.residual_inf = f.lpNorm<Eigen::Infinity>();
  for (r.iterations = 0; r.iterations < options.max_iterations; ++r.iterations) {
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(jac);
    r.rcond = lu.rcond();
    if (!(r.rcond >= options.min_rcond)) {
      r.status = newton_status::singular_jacobian;
      return r;
    }
    Eigen::VectorXd dx = -lu.solve(f);
    const double scale = 1.0 + r.x.lpNorm<Eigen::Infinity>();
    // Already at a root to working precision: rounding would make every step "not lower" F.
    if (r.residual_inf <= options.tol_f && dx.lpNorm<Eigen::Infinity>() <= options.tol_x * scale) {
      r.x += dx;
      if (system(r.x, f_trial, nullptr) && f_trial.lpNorm<Eigen::Infinity>() <= options.tol_f) {
        r.residual_inf = f_trial.lpNorm<Eigen::Infinity>();
      } else {
        r.x -= dx;
      }
      r.status = newton_status::converged;
      return r;
    }
    int halvings = 0;
    Eigen::VectorXd trial;
    while (true) {
      trial = r.x + dx;
      if (system(trial, f_trial, nullptr) && f_trial.lpNorm<Eigen::Infinity>() < r.residual_inf)
        break;
      if (++halvings > options.max_halvings) {
        r.status = newton_status::diverged;
        return r;
      }
      dx *= options.damping;
    }
    r.x = trial;
    system(r.x, f, &jac);
    r.residual_inf = f.lpNorm<Eigen::Infinity>();
    if (stop_when && stop_when(r.x)) {
      ++r.iterations;
      r.status = newton_status::stopped;
      return r;
    }
    if (dx.lpNorm<Eigen::Infinity>() <= options.tol_x * scale && r.residual_inf <= options.tol_f) {
      ++r.iterations;
      r.status = newton_status::converged;
      return r;
    }
  }
  r.status = newton_status::max_iterations;
  return r;
}

}  // namespace kinevo::synthesis
