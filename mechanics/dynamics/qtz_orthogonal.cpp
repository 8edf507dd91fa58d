#include "kinevo/mechanics/dynamics/detail/qtz_orthogonal.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <optional>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_solver_options.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

qtz_orthogonal_formulation::qtz_orthogonal_formulation(const model& m,
                                                       const formulation_options& options)
    : model_(m), options_(options), solver_(qtz_solver_options(options)) {
  report_.name = to_string(formulation_kind::qtz_orthogonal);
}

step_outcome qtz_orthogonal_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                                    Eigen::VectorXd& y) {
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  const double tolerance = options_.newton_tolerance;
  const double q_scale = 1.0 + max_abs(q), v_scale = 1.0 + max_abs(qd);
  // Corrections below the tolerances are dropped (y unchanged, so Dormand-Prince keeps its
  // last stage); any beyond them is applied with the rest and counted.
  bool beyond = false;
  qtz_decomposition d;
  if (model_.holonomic_constraints() > 0) {
    // Newton on the r combined constraints Psi'' = C Phi: Psi''_q dq = -C Phi with the
    // minimum-norm solution dq = -Q1^ C Phi (Del Citto et al., eqs. 31-34 and 41-46). The
    // monitor is the step |dq| as well as |Phi|: near a singular configuration a drift along the
    // other branch's tangent leaves |Phi| ~ sigma_min |drift| tiny while |dq| ~ |drift| is not.
    Eigen::VectorXd phi = model_.position_violation(q, t);
    for (int it = 0;; ++it) {
      if (!phi.allFinite() || it == options_.newton_iterations) {
        Eigen::Index worst = 0;
        phi.cwiseAbs().maxCoeff(&worst);
        message_ = fmt::format(
            "qtz-orthogonal: the position correction did not reach newton_tolerance {:g} in {} "
            "iterations: constraint '{}' is still violated by {:.3g}",
            tolerance, it, model_.constraint_names()[static_cast<std::size_t>(worst)], phi[worst]);
        return step_outcome::failed;
      }
      d = qtz_decomposition{};  // lets the workspace reuse its sparse factor
      // Only Q1^ is applied here: no Q2.
      d = decompose_qtz(model_.position_jacobian(q, t), options_.rank_tolerance, workspace_, false);
      const Eigen::VectorXd psi = d.combination * phi;  // Psi'' = C Phi
      const Eigen::VectorXd dq = d.q1_hat_times(psi);
      q -= dq;
      const bool converged = max_abs(phi) <= tolerance && max_abs(dq) <= tolerance * q_scale;
      if (converged) break;
      beyond = true;
      phi = model_.position_violation(q, t);
    }
  }
  if (model_.constraints() > 0) {
    // Velocities: dq' with A dq' = c = A q' + a_t, orthogonalised like eq. 47:
    // dq' = Q1^ C c + Q2 z with Q2^T M dq' = 0, i.e. M^ z = -Q2^T M Q1^ C c (eqs. 64-67 with
    // g = 0). dq' is then M-orthogonal to the null space, so removing it changes the kinetic
    // energy only at second order; the Euclidean minimum-norm dq' = Q1^ C c would change it at
    // first order by q'^T M Q1^ C c, which near a singular configuration (where a step can leave
    // a range-space velocity of 1e-5 on Yoo's parallelogram) costs 2e-5 of the energy.
    const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
    model_.evaluate(q, qd, t, system_);
    d = qtz_decomposition{};
    d = decompose_qtz(system_.jacobian, options_.rank_tolerance, workspace_);
    const Eigen::VectorXd gamma = d.combination * c;
    Eigen::VectorXd dqd = d.q1_hat_times(gamma);
    std::optional<qtz_reduced_mass_factor> mass;
    if (d.q2.cols() > 0) {
      // The solver's M Q2 and LLT of M^: offered with the decomposition below.
      mass = factor_reduced_mass(system_, d.q2);
      const Eigen::VectorXd rhs = mass->m_q2.transpose() * dqd;
      const Eigen::VectorXd z = mass->llt.solve(rhs);
      dqd -= d.q2 * z;
    }
    qd -= dqd;
    if (max_abs(c) > tolerance || max_abs(dqd) > tolerance * v_scale) beyond = true;
    // The next step's first stage evaluates A at this q again (A depends on q only, and the
    // solver compares it exactly): it takes this decomposition instead of repeating it, and M Q2
    // with M^'s LLT when its M is this one.
    solver_.offer(system_.jacobian, std::move(d), std::move(mass));
  }
  if (!beyond) return step_outcome::unchanged;
  ++report_.corrections;
  y = pack_state(q, qd);
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
