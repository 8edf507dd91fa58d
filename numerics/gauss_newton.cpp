#include "kinevo/numerics/gauss_newton.hpp"

#include <Eigen/QR>
#include <cmath>

#include "kinevo/numerics/backtracking.hpp"

namespace kinevo::numerics {

newton_result gauss_newton(const residual_function& fun, const Eigen::VectorXd& x0,
                           const newton_options& options) {
  options.validate();
  newton_result r;
  r.x = x0;
  Eigen::VectorXd f, f_trial;
  Eigen::MatrixXd jac;
  fun(r.x, f, &jac);
  r.residual = f.norm();
  for (r.iterations = 0; r.iterations < options.max_iterations; ++r.iterations) {
    if (!std::isfinite(r.residual)) return r.end(newton_status::non_finite);
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(jac);
    if (qr.rank() < jac.cols()) return r.end(newton_status::singular_jacobian);
    Eigen::VectorXd dx = -qr.solve(f);
    const int halvings =
        backtrack(dx, options.damping, options.max_halvings, [&](const Eigen::VectorXd& step) {
          fun(r.x + step, f_trial, nullptr);
          return f_trial.norm() <= r.residual;
        });
    const bool small = dx.norm() <= options.tol_x * (1.0 + r.x.norm());
    if (halvings > options.max_halvings) {
      // No descent along the Gauss-Newton direction: at a minimum to working precision, or stuck.
      const bool minimum = small || dx.norm() <= 1e-8 * (1.0 + r.x.norm());
      return r.end(minimum ? newton_status::converged : newton_status::diverged);
    }
    r.x += dx;
    fun(r.x, f, &jac);
    r.residual = f.norm();
    if (small) {
      ++r.iterations;
      return r.end(newton_status::converged);
    }
  }
  return r.end(newton_status::max_iterations);
}

}  // namespace kinevo::numerics
