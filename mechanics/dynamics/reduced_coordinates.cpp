#include "kinevo/mechanics/dynamics/detail/reduced_coordinates.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"

namespace kinevo::mechanics {

reduced_coordinates::reduced_coordinates(const model& m, const formulation_options& options)
    : model_(m), options_(options) {}

Eigen::VectorXd reduced_coordinates::begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           double t) {
  q_ = q;
  qd_ = qd;
  q_accepted_ = q;
  qd_accepted_ = qd;
  t_accepted_ = t;
  set_basis(choose_basis(q, t));
  return pack_state(basis_ * q, basis_ * qd);
}

void reduced_coordinates::set_basis(Eigen::MatrixXd basis) {
  basis_ = std::move(basis);
  stacked_.set_basis(basis_);
  factored_ = false;
}

// The velocities of the first stage of a step are recovered at the q, t and basis where those
// of the accepted step were (after_step): that factorisation is kept rather than repeated.
void reduced_coordinates::factor_stacked(const Eigen::VectorXd& q, double t) {
  // Bit for bit (-0 and 0 may give different Jacobians' signed zeros).
  if (factored_ && std::memcmp(&t, &factored_t_, sizeof t) == 0 && q.size() == factored_q_.size() &&
      std::memcmp(q.data(), factored_q_.data(),
                  sizeof(double) * static_cast<std::size_t>(q.size())) == 0) {
    return;
  }
  stacked_.factor(model_.position_jacobian_sparse(q, t));
  factored_ = true;
  factored_q_ = q;
  factored_t_ = t;
}

// Newton on [Phi(q, t); B q - p] = 0 (Yoo et al., eq. 8; Del Citto et al., eq. 55 integrated),
// from the accepted state moved on by its velocity: the stages of one step are close to it.
bool reduced_coordinates::recover_positions(const Eigen::VectorXd& p, double t) {
  Eigen::VectorXd q = q_accepted_ + (t - t_accepted_) * qd_accepted_;
  const double tolerance = options_.newton_tolerance * std::max(1.0, max_abs(q));
  Eigen::VectorXd residual(model_.holonomic_constraints() + basis_.rows());
  for (int it = 0;; ++it) {
    residual << model_.position_violation(q, t), basis_ * q - p;
    if (!residual.allFinite()) break;
    if (max_abs(residual) <= tolerance) {
      q_ = q;
      return true;
    }
    if (it == options_.newton_iterations) break;
    factor_stacked(q, t);
    q -= stacked_.solve(residual);
  }
  const Eigen::VectorXd phi = model_.position_violation(q, t);
  Eigen::Index worst = 0;
  if (phi.size() > 0) phi.cwiseAbs().maxCoeff(&worst);
  message_ = fmt::format(
      "the dependent coordinates did not converge ({} Newton iterations, {} formulation): "
      "max |Phi| = {:.3g} at constraint '{}'; the configuration may be singular or the step too "
      "large (a smaller --dt, or --formulation projection or hybrid)",
      options_.newton_iterations, to_string(kind()), phi.size() > 0 ? std::abs(phi[worst]) : 0.0,
      phi.size() > 0 ? model_.constraint_names()[static_cast<std::size_t>(worst)] : "");
  return false;
}

// [Phi_q; B] q' = [-Phi_t; p'] (Yoo et al., eq. 9; Del Citto et al., eq. 55).
bool reduced_coordinates::recover_velocities(const Eigen::VectorXd& pd, double t) {
  const Eigen::VectorXd phi_t = model_.velocity_violation(q_, Eigen::VectorXd::Zero(q_.size()), t);
  Eigen::VectorXd rhs(phi_t.size() + pd.size());
  rhs << -phi_t, pd;
  factor_stacked(q_, t);
  qd_ = stacked_.solve(rhs);
  if (qd_.allFinite()) return true;
  message_ = fmt::format(
      "the dependent velocities are not finite ({} formulation): [Phi_q; B] is "
      "singular",
      to_string(kind()));
  return false;
}

bool reduced_coordinates::expand(const Eigen::VectorXd& y, double t, Eigen::VectorXd& q,
                                 Eigen::VectorXd& qd) {
  const Eigen::Index k = basis_.rows();
  if (y.size() != 2 * k) {
    message_ =
        fmt::format("internal: state of size {} for {} independent coordinates", y.size(), k);
    return false;
  }
  if (!recover_positions(y.head(k), t) || !recover_velocities(y.tail(k), t)) return false;
  q = q_;
  qd = qd_;
  return true;
}

Eigen::VectorXd reduced_coordinates::derivative(const Eigen::VectorXd& /*q*/,
                                                const Eigen::VectorXd& qd,
                                                const Eigen::VectorXd& qdd) {
  return pack_state(basis_ * qd, basis_ * qdd);
}

step_outcome reduced_coordinates::after_step(double t, double /*h*/, double /*h_max*/,
                                             Eigen::VectorXd& y) {
  Eigen::VectorXd q, qd;
  if (!expand(y, t, q, qd)) return step_outcome::failed;
  q_accepted_ = q;
  qd_accepted_ = qd;
  t_accepted_ = t;
  if (!rebase_wanted(q, t)) return step_outcome::unchanged;
  set_basis(choose_basis(q, t));
  y = pack_state(basis_ * q, basis_ * qd);
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
