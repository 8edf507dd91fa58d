#include "kinevo/numerics/damped_newton.hpp"

#include <Eigen/LU>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/numerics/backtracking.hpp"

namespace kinevo::numerics {

namespace {

// The reciprocal condition estimate at or below which lu_step refuses the step.
constexpr double lu_step_rcond_limit = 1e-14;

// Stage of the square form: already at a root to working precision, where rounding would make
// every step "not lower" F. Takes the last step when it keeps ||F||_inf within tol_f.
void finish_at_root(const system_function& system, const Eigen::VectorXd& dx,
                    const newton_options& options, newton_result& r) {
  Eigen::VectorXd f_trial(dx.size());
  r.x += dx;
  if (system(r.x, f_trial, nullptr) && f_trial.lpNorm<Eigen::Infinity>() <= options.tol_f) {
    r.residual = f_trial.lpNorm<Eigen::Infinity>();
  } else {
    r.x -= dx;
  }
}

}  // namespace

newton_result damped_newton(const system_function& system, const Eigen::VectorXd& x0,
                            const newton_options& options,
                            const std::function<bool(const Eigen::VectorXd&)>& stop_when) {
  options.validate();
  const Eigen::Index n = x0.size();
  newton_result r;
  r.x = x0;
  Eigen::VectorXd f(n), f_trial(n);
  Eigen::MatrixXd jac(n, n);
  if (!system(r.x, f, &jac)) throw io::option_error("x0", "is outside the domain (damped_newton)");
  r.residual = f.lpNorm<Eigen::Infinity>();
  for (r.iterations = 0; r.iterations < options.max_iterations; ++r.iterations) {
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(jac);
    r.rcond = lu.rcond();
    if (!(r.rcond >= options.min_rcond)) return r.end(newton_status::singular_jacobian);
    Eigen::VectorXd dx = -lu.solve(f);
    const double scale = 1.0 + r.x.lpNorm<Eigen::Infinity>();
    if (r.residual <= options.tol_f && dx.lpNorm<Eigen::Infinity>() <= options.tol_x * scale) {
      finish_at_root(system, dx, options, r);
      return r.end(newton_status::converged);
    }
    Eigen::VectorXd trial;
    const int halvings =
        backtrack(dx, options.damping, options.max_halvings, [&](const Eigen::VectorXd& step) {
          trial = r.x + step;
          return system(trial, f_trial, nullptr) && f_trial.lpNorm<Eigen::Infinity>() < r.residual;
        });
    if (halvings > options.max_halvings) return r.end(newton_status::diverged);
    r.x = trial;
    system(r.x, f, &jac);
    r.residual = f.lpNorm<Eigen::Infinity>();
    if (stop_when && stop_when(r.x)) {
      ++r.iterations;
      return r.end(newton_status::stopped);
    }
    if (dx.lpNorm<Eigen::Infinity>() <= options.tol_x * scale && r.residual <= options.tol_f) {
      ++r.iterations;
      return r.end(newton_status::converged);
    }
  }
  return r.end(newton_status::max_iterations);
}

newton_result damped_newton(const residual_function& f, Eigen::VectorXd x0,
                            const newton_options& options, const step_solver& solve) {
  options.validate();
  newton_result out;
  out.x = std::move(x0);
  Eigen::VectorXd fx, ftrial, dx;
  Eigen::MatrixXd j, jtrial;
  f(out.x, fx, &j);
  bool converged = false, singular = false;
  for (out.iterations = 0; out.iterations < options.max_iterations;) {
    if (!solve(j, fx, dx)) {
      singular = true;
      break;
    }
    ++out.iterations;
    // The shortest trial is taken when none lowers ||f||_2 (or the step is negligible).
    const double before = fx.norm();
    backtrack(dx, options.damping, options.max_halvings, [&](const Eigen::VectorXd& step) {
      f(out.x + step, ftrial, &jtrial);
      return ftrial.norm() < before || max_abs(step) < options.tol_x;
    });
    out.x += dx;
    fx.swap(ftrial);
    j.swap(jtrial);
    if (max_abs(dx) < options.tol_x && max_abs(fx) < options.tol_f) {
      converged = true;
      break;
    }
  }
  // A residual already at round-off level is a solution even when the last step was not tiny.
  out.residual = max_abs(fx);
  if (!converged && out.residual < options.tol_f) converged = true;
  if (converged) return out.end(newton_status::converged);
  return out.end(singular ? newton_status::singular_jacobian : newton_status::max_iterations);
}

bool lu_step(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& f, Eigen::VectorXd& dx) {
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(jacobian);
  if (!(lu.rcond() > lu_step_rcond_limit)) return false;
  dx = lu.solve(-f);
  return true;
}

}  // namespace kinevo::numerics
