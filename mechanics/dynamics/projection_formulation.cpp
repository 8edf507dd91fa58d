#include "kinevo/mechanics/dynamics/detail/projection_formulation.hpp"

#include <fmt/format.h>

#include <Eigen/QR>
#include <optional>

#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"

namespace kinevo::mechanics {

namespace {

// The sparse paths are taken only when A is this factor clear of the rank tolerance
// (sparse_position_correction.hpp).
constexpr double sparse_regular_margin = 1e3;

direct_solver_options solver_options_of(const formulation_options& o) {
  direct_solver_options s;
  s.rank_tolerance = o.rank_tolerance;
  return s;
}

}  // namespace

projection_formulation::projection_formulation(const model& m, const formulation_options& options)
    : model_(m), options_(options), solver_(solver_options_of(options)) {
  report_.name = to_string(formulation_kind::projection);
}

bool projection_formulation::sparse_worthwhile() const {
  // As for the solvers' sparse Gram path: below ~8 rows the dense factorisations are as fast.
  const auto m = static_cast<double>(model_.holonomic_constraints());
  const auto n = static_cast<double>(model_.coordinates());
  return m >= 8 && static_cast<double>(model_.jacobian_pattern().size()) <= 0.25 * m * n;
}

bool projection_formulation::correct_positions(Eigen::VectorXd& q, double t, bool& moved) {
  moved = false;
  if (model_.holonomic_constraints() == 0) return true;
  if (sparse_worthwhile()) {
    if (const std::optional<bool> sparse_moved =
            sparse_positions_.correct(model_, q, t, options_)) {
      moved = *sparse_moved;
      return true;
    }
  }
  Eigen::VectorXd phi = model_.position_violation(q, t);
  const Eigen::Index n = q.size(), m = phi.size();
  // P_T of Phi_q at the predicted positions, fixed during the iteration: the rows P_T^T dq = 0
  // keep the correction out of the null space (eq. 20), i.e. the smallest correction.
  Eigen::MatrixXd jac = model_.position_jacobian(q, t);
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(options_.rank_tolerance);
  cod.compute(jac);
  const auto k = n - static_cast<Eigen::Index>(cod.rank());
  const Eigen::MatrixXd p_n = Eigen::MatrixXd::Identity(n, n) - cod.pseudoInverse() * jac;
  const std::vector<int> columns = independent_null_space_columns(p_n, static_cast<int>(k));
  Eigen::MatrixXd stacked(m + k, n);
  for (Eigen::Index j = 0; j < k; ++j) {
    stacked.row(m + j) = p_n.col(columns[static_cast<std::size_t>(j)]).transpose();
  }
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(m + k);
  double violation = phi.cwiseAbs().maxCoeff();
  for (int it = 0; it < options_.newton_iterations && violation > 0.0; ++it) {
    stacked.topRows(m) = jac;
    rhs.head(m) = -phi;
    // Least squares through a rank-revealing factorisation: at a singular configuration the
    // stacked matrix loses rank and the minimum-norm step is still defined.
    cod.compute(stacked);
    const Eigen::VectorXd q_new = q + cod.solve(rhs);
    const Eigen::VectorXd phi_new = model_.position_violation(q_new, t);
    // Below newton_tolerance, iterate on down to round-off: across the constraint manifold Phi
    // grows like sigma_min of Phi_q times the distance, so near a singular configuration a
    // position tolerance / sigma_min away would pass, and the errors off the manifold grow like
    // 1 / sigma_min there. But there a step that does not halve |Phi| is made of round-off over
    // sigma_min: it is refused (exactly on the manifold it would only add noise).
    const double violation_new = phi_new.cwiseAbs().maxCoeff();
    if (violation <= options_.newton_tolerance && !(violation_new <= 0.5 * violation)) break;
    moved = true;
    q = q_new;
    phi = phi_new;
    violation = violation_new;
    jac = model_.position_jacobian(q, t);
  }
  if (violation <= options_.newton_tolerance) return true;
  Eigen::Index worst = 0;
  const double largest = phi.cwiseAbs().maxCoeff(&worst);
  message_ = fmt::format(
      "projection: the position correction (Yoo, Kim and Kim, eq. 20) did not reach |Phi| <= "
      "{:g} in {} Newton iterations: constraint '{}' is violated by {:.3g}",
      options_.newton_tolerance, options_.newton_iterations,
      model_.constraint_names()[static_cast<std::size_t>(worst)], largest);
  return false;
}

bool projection_formulation::correct_velocities(const Eigen::VectorXd& q, Eigen::VectorXd& qd,
                                                double t, double tolerance) {
  if (model_.constraints() == 0) return false;
  // Eq. 13: q' = I_R (-Phi_t) + P_N q' = q' - I_R (A q' + Phi_t), the last bracket being the
  // velocity violation of every row (nonholonomic ones included), with the generalized inverse
  // in the metric of M, I_R = M^-1 A^T (A M^-1 A^T)^+ (the velocity projection of the
  // generalized-inverse dissertation (GIGSP), eq. 2.53), instead of the paper's Euclidean A^+:
  // the removed velocity is then M-orthogonal to the null space, so the kinetic energy changes
  // only at second order. Near a flat configuration a step leaves a range-space velocity of
  // round-off over sigma_min, and its Euclidean removal cost the parallelogram 2.2e-7 to 3.9e-7
  // of its energy (hybrid: 2.2e-6) against 1.5e-9 (hybrid: 4.2e-9) in the metric of M.
  const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
  // Only a violation beyond `tolerance` (newton_tolerance after a step) is corrected: A^+ c of a
  // round-off c is round-off over sigma_min, which near a singular configuration is a velocity
  // across the constraint manifold, and the acceleration there amplifies it by 1 / sigma_min again
  // (at the stage next to the flat parallelogram, 8e-6 rad away, that turned 1e-7 into 1e-5 of
  // energy).
  const double violation = c.cwiseAbs().maxCoeff();
  if (violation <= tolerance) return false;
  model_.evaluate(q, qd, t, system_);
  mass_factor mf;
  if (!mf.compute(system_)) return false;
  // A full-rank, sparse A (clear of the rank tolerance, as for the positions): the same
  // M-metric step from the sparse Gram matrix, dq' = M^-1 A^T (A M^-1 A^T)^-1 c.
  if (sparse_gram::applicable(system_) &&
      gram_.factor(system_, sparse_regular_margin * options_.rank_tolerance)) {
    qd -= mf.solve(gram_.transpose_times(system_, gram_.solve(c)));
    return true;
  }
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(options_.rank_tolerance);
  cod.compute(mf.right_solve_upper(system_.jacobian));
  qd -= mf.solve_upper(cod.solve(c));
  return true;
}

step_outcome projection_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                                Eigen::VectorXd& y) {
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  bool moved = false;
  if (!correct_positions(q, t, moved)) return step_outcome::failed;
  if (!correct_velocities(q, qd, t, options_.newton_tolerance) && !moved)
    return step_outcome::unchanged;
  y = pack_state(q, qd);
  ++report_.corrections;
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
