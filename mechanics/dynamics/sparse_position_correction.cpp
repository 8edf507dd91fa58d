#include "kinevo/mechanics/dynamics/detail/sparse_position_correction.hpp"

#include "kinevo/core/max_abs.hpp"

namespace kinevo::mechanics {

namespace {

// The sparse path is taken only when every row's remainder is this factor clear of the rank
// tolerance: between the two the dense rank decision stays in charge.
constexpr double regular_margin = 1e3;

}  // namespace

std::optional<bool> sparse_position_correction::correct(const model& m, Eigen::VectorXd& q,
                                                        double t,
                                                        const formulation_options& options) {
  Eigen::VectorXd x = q;
  Eigen::VectorXd phi = m.position_violation(x, t);
  const Eigen::SparseMatrix<double> jacobian_0 = m.position_jacobian_sparse(x, t);
  if (!pseudo_inverse_.factor(jacobian_0, regular_margin * options.rank_tolerance)) {
    return std::nullopt;
  }
  const Eigen::SparseMatrix<double> range = jacobian_0.transpose();
  Eigen::SparseMatrix<double> jacobian = jacobian_0;
  bool moved = false;
  double violation = max_abs(phi);
  for (int it = 0; it < options.newton_iterations && violation > 0.0; ++it) {
    const Eigen::SparseMatrix<double> h = jacobian * range;
    // COLAMD's column order depends on the pattern only: analysed again when it changes.
    if (!analysed_.matches(h)) {
      lu_.analyzePattern(h);
      analysed_.remember(h);
    }
    lu_.factorize(h);
    if (lu_.info() != Eigen::Success) return std::nullopt;
    const Eigen::VectorXd y = lu_.solve(-phi);
    if (!y.allFinite()) return std::nullopt;
    const Eigen::VectorXd x_new = x + range * y;
    const Eigen::VectorXd phi_new = m.position_violation(x_new, t);
    // The dense path's stopping rule (projection_formulation::correct_positions).
    const double violation_new = max_abs(phi_new);
    if (violation <= options.newton_tolerance && !(violation_new <= 0.5 * violation)) break;
    moved = true;
    x = x_new;
    phi = phi_new;
    violation = violation_new;
    jacobian = m.position_jacobian_sparse(x, t);
  }
  if (!(violation <= options.newton_tolerance)) return std::nullopt;
  q = x;
  return moved;
}

}  // namespace kinevo::mechanics
