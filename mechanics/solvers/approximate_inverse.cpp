#include "kinevo/mechanics/solvers/approximate_inverse.hpp"

#include <fmt/format.h>

#include <Eigen/Core>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

namespace {

// b - A a_f, evaluated once (the right-hand side the generalized inverse maps).
Eigen::VectorXd residual(const constrained_system& s, const Eigen::VectorXd& a_f) {
  Eigen::VectorXd r = s.rhs;
  r.noalias() -= s.jacobian * a_f;
  return r;
}

}  // namespace

bool approximate_inverse_solver::refresh(const constrained_system& system) {
  exact_due_ = true;
  const acceleration_result r = solve(system);
  return r.status == solve_status::ok && !exact_due_;
}

acceleration_result approximate_inverse_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  // The current a_f = M^-1 f (the one part of eq. 2.43 always computed afresh).
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  if (exact_due_ || inverse_.rows() != s.coordinates() || inverse_.cols() != s.constraints()) {
    // Exact step: Gram-Schmidt as GIGSP does (eqs. 2.21-2.30), then G is kept.
    const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
    const gram_schmidt_rows gs =
        orthonormalize_rows(a_hat, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                            options_.degenerate_tolerance);
    acceleration_result r;
    r.rank = static_cast<int>(gs.kept.size());
    r.redundant = gs.redundant;
    r.inconsistent = gs.inconsistent;
    if (!gs.inconsistent.empty()) {
      r.status = solve_status::inconsistent;
      r.message = fmt::format(
          "gigsp-reuse: inconsistent constraints at an exact step: {} {} dependent on earlier "
          "constraints but {} right-hand side disagrees, so no acceleration satisfies the set; "
          "correct the model",
          row_names(s, gs.inconsistent), gs.inconsistent.size() == 1 ? "is" : "are",
          gs.inconsistent.size() == 1 ? "its" : "their");
      return r;
    }
    // The kept rows A_K L^-T = W Q with Q = gs.q orthonormal and W = A_K L^-T Q^T (r x r,
    // lower triangular in the order Gram-Schmidt took the rows), so
    // (A_K L^-T)^+ = Q^T W^-1 and G_K = L^-T Q^T W^-1: the exact GIGSP acceleration is
    // a_f + G (b - A a_f) with the dropped rows' columns zero.
    const Eigen::Index rows = static_cast<Eigen::Index>(gs.kept.size());
    Eigen::MatrixXd w(rows, rows);
    for (Eigen::Index i = 0; i < rows; ++i) {
      w.row(i) = a_hat.row(gs.kept[static_cast<std::size_t>(i)]) * gs.q.transpose();
    }
    // X = Q^T W^-1, i.e. W^T X^T = Q (W^T upper triangular; its round-off below the
    // diagonal is ignored).
    const Eigen::MatrixXd wt = w.transpose();
    const Eigen::MatrixXd x = wt.triangularView<Eigen::Upper>().solve(gs.q);
    inverse_ = Eigen::MatrixXd::Zero(s.coordinates(), s.constraints());
    for (Eigen::Index i = 0; i < rows; ++i) {
      inverse_.col(gs.kept[static_cast<std::size_t>(i)]) = mf.solve_upper(x.row(i).transpose());
    }
    rank_ = r.rank;
    redundant_ = gs.redundant;
    exact_due_ = false;
    ++exact_inverses_;
    r.acceleration = a_f + inverse_ * residual(s, a_f);
    set_constraint_force(s, a_f, r);
    return r;
  }
  // Between exact steps: eq. 2.43 with the kept G and the current a_f, A and b.
  acceleration_result r;
  r.rank = rank_;
  r.redundant = redundant_;
  r.acceleration = a_f + inverse_ * residual(s, a_f);
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
