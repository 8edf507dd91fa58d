#include "kinevo/numerics/newton_raphson.hpp"

#include <utility>

#include "kinevo/core/max_abs.hpp"

namespace kinevo::numerics {

newton_result newton_raphson(const newton_step_function& step, Eigen::VectorXd x0,
                             const newton_options& options, const newton_observer& observe) {
  options.validate();
  newton_result r;
  r.x = std::move(x0);
  // Steps beyond this are growth without bound, not a search (it would only end at the cap).
  const double growth_limit = 1e10 * (1.0 + max_abs(r.x));
  Eigen::VectorXd f, dx;
  for (int i = 0; i < options.max_iterations; ++i) {
    if (!step(r.x, f, dx)) return r.end(newton_status::non_finite);
    r.iterations = i + 1;
    r.residual = max_abs(f);
    if (observe) observe(r.x, f, dx);
    if (!dx.allFinite()) return r.end(newton_status::non_finite);
    r.x += dx;
    const double step_size = max_abs(dx);
    if (r.residual <= options.tol_f && step_size <= options.tol_x) {
      return r.end(newton_status::converged);
    }
    if (step_size > growth_limit) return r.end(newton_status::diverged);
  }
  return r.end(newton_status::max_iterations);
}

}  // namespace kinevo::numerics
