#include "mechanics/qtz_orthogonal.hpp"

#include <fmt/format.h>

#include "mechanics/full_formulation.hpp"
#include "mechanics/qtz_decomposition.hpp"

namespace kinevo::mechanics {

namespace {

solver_options qtz_solver_options(const formulation_options& o) {
  solver_options s;
  s.rank_tolerance = o.rank_tolerance;
  return s;
}

double max_abs(const Eigen::VectorXd& v) {
  return v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0;
}

}  // namespace

qtz_orthogonal_formulation::qtz_orthogonal_formulation(const model& m,
                                                       const formulation_options& options)
    : model_(m), options_(options), solver_(qtz_solver_options(options)) {
  report_.name = to_string(formulation_kind::qtz_orthogonal);
}

Eigen::VectorXd qtz_orthogonal_formulation::begin(const Eigen::VectorXd& q,
                                                  const Eigen::VectorXd& qd, double /*t*/) {
  return pack_state(q, qd);
}

bool qtz_orthogonal_formulation::expand(const Eigen::VectorXd& y, double /*t*/, Eigen::VectorXd& q,
                                        Eigen::VectorXd& qd) {
  const Eigen::Index n = y.size() / 2;
  q = y.head(n);
  qd = y.tail(n);
  return true;
}

Eigen::VectorXd qtz_orthogonal_formulation::derivative(const Eigen::VectorXd& /*q*/,
                                                       const Eigen::VectorXd& qd,
                                                       const Eigen::VectorXd& qdd) {
  return pack_state(qd, qdd);
}

step_outcome qtz_orthogonal_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                                    Eigen::VectorXd& y) {
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  const double tolerance = options_.newton_tolerance;
  bool corrected = false;
  if (model_.holonomic_constraints() > 0) {
    // Newton on the r combined constraints Psi'' = C Phi: Psi''_q dq = -C Phi with the
    // minimum-norm solution dq = -Q1^ C Phi (Del Citto et al., eqs. 31-34 and 41-46).
    Eigen::VectorXd phi = model_.position_violation(q, t);
    for (int it = 0; !(max_abs(phi) <= tolerance); ++it) {
      if (it == options_.newton_iterations || !phi.allFinite()) {
        Eigen::Index worst = 0;
        phi.cwiseAbs().maxCoeff(&worst);
        message_ = fmt::format(
            "qtz-orthogonal: the position correction did not reach newton_tolerance {:g} in {} "
            "iterations: constraint '{}' is still violated by {:.3g}",
            tolerance, it, model_.constraint_names()[static_cast<std::size_t>(worst)], phi[worst]);
        return step_outcome::failed;
      }
      const qtz_decomposition d =
          decompose_qtz(model_.position_jacobian(q, t), options_.rank_tolerance);
      q -= d.q1_hat * (d.combination * phi);
      phi = model_.position_violation(q, t);
      corrected = true;
    }
  }
  if (model_.constraints() > 0) {
    // q' -= Q1^ C (A q' + a_t): the velocity rows are linear in q', one step is exact.
    const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
    if (max_abs(c) > tolerance) {
      Eigen::MatrixXd jacobian;
      if (model_.constraints() == model_.holonomic_constraints()) {
        jacobian = model_.position_jacobian(q, t);
      } else {
        model_.evaluate(q, qd, t, system_);
        jacobian = system_.jacobian;
      }
      const qtz_decomposition d = decompose_qtz(jacobian, options_.rank_tolerance);
      qd -= d.q1_hat * (d.combination * c);
      corrected = true;
    }
  }
  if (!corrected) return step_outcome::unchanged;
  y = pack_state(q, qd);
  ++report_.corrections;
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
