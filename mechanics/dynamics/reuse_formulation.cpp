#include "kinevo/mechanics/dynamics/detail/reuse_formulation.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"

namespace kinevo::mechanics {

reuse_formulation::reuse_formulation(const model& m, int exact_every,
                                     const simulation_options& simulation)
    : model_(m),
      exact_every_(exact_every),
      stabilization_(simulation.stabilization),
      tolerance_(simulation.projection_tolerance),
      iterations_(simulation.projection_iterations) {
  report_.name = to_string(formulation_kind::reuse);
  require_holonomic(m, formulation_kind::reuse,
                    "generalized-inverse dissertation, section 4.3.3: the reused inverse is of "
                    "the holonomic rows");
  if (simulation.integrator != integrator_kind::rk4) {
    throw io::option_error(
        "integrator",
        fmt::format("must be rk4 with --formulation reuse (got {}): the generalized inverse kept "
                    "between exact steps jumps at each exact step, which an error-controlled "
                    "integrator reads as local error, while the reuse error itself is invisible "
                    "to it",
                    to_string(simulation.integrator)));
  }
}

acceleration_solver& reuse_formulation::solver(acceleration_solver& /*user*/) {
  return solver_;
}

step_outcome reuse_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                           Eigen::VectorXd& y) {
  ++steps_;
  const bool refresh = steps_ % exact_every_ == 0;
  const bool project = stabilization_ == stabilization_kind::projection;
  if (!refresh && !project) return step_outcome::unchanged;
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  if (project) {
    project_weighted(model_, t, tolerance_, iterations_, q, qd);
    y = pack_state(q, qd);
    ++report_.corrections;
  }
  if (refresh) {
    // At the accepted (and projected) state: with Dormand-Prince the next solve may be a
    // trial stage of a step that is then rejected. G depends on M and A only, so the
    // uncompensated b is fine here; a failure leaves the exact inverse due at the next solve.
    model_.evaluate(q, qd, t, system_);
    solver_.refresh(system_);
    report_.exact_inverses = solver_.exact_inverses();
  }
  return project ? step_outcome::changed : step_outcome::unchanged;
}

}  // namespace kinevo::mechanics
