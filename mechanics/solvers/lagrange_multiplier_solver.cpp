#include "kinevo/mechanics/solvers/detail/lagrange_multiplier_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>

#include "kinevo/mechanics/solvers/detail/packet_order_sum.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string lagrange_multiplier_solver::name() const {
  return "lm";
}

acceleration_result lagrange_multiplier_solver::solve(const constrained_system& s) {
  acceleration_result r;
  solve_into(s, r);
  return r;
}

// A small system whose Gram matrix is safely positive definite (detail/small_gram_ldlt.hpp);
// false for any other, which the general path then solves or refuses (rank deficiency is decided
// and reported there only). With a diagonal M, A L^-T is formed inside the small factor (its
// columns scaled by 1 / sqrt(m_jj), mass_factor's numbers) instead of into a_hat_.
bool lagrange_multiplier_solver::solve_small(const constrained_system& s, const mass_factor& mf,
                                             const Eigen::VectorXd& a_f,
                                             const Eigen::VectorXd& residual,
                                             acceleration_result& r) {
  if (!small_gram_ldlt::fits(s.constraints(), s.coordinates())) return false;
  if (mf.diagonal()) {
    inverse_sqrt_ = s.mass.diagonal().cwiseSqrt().cwiseInverse();
    if (!small_.factor(s.jacobian, options_.rank_tolerance, inverse_sqrt_.data())) return false;
  } else {
    mf.right_solve_upper(s.jacobian, a_hat_, a_hat_t_);
    if (!small_.factor(a_hat_, options_.rank_tolerance)) return false;
  }
  small_.solve(residual, lambda_);
  small_.transpose_times(lambda_, y_);
  mf.solve_upper_in_place(y_);
  r.acceleration = a_f + y_;
  r.rank = s.constraints();
  set_constraint_force(s, a_f, r, work_);
  return true;
}

// The vectors and matrices are members kept between solves (no allocation once the sizes of
// the system are reached).
void lagrange_multiplier_solver::solve_into(const constrained_system& s, acceleration_result& r) {
  reset_result(r);
  mass_factor& mf = mf_;
  Eigen::VectorXd& a_f = a_f_;
  if (auto done = start_solve(s, name(), mf, a_f)) {
    r = std::move(*done);
    return;
  }
  const int m = s.constraints();
  Eigen::VectorXd& residual = residual_;
  residual = s.rhs;  // b - A a_f as Eigen evaluates the expression: r = b; r -= A a_f
  detail::subtract_product(s.jacobian, a_f, residual);
  // Below small_gram_ldlt::before_sparse_entries the small path is tried before the sparse one.
  const bool small_first = small_gram_ldlt::prefer(s.constraints(), s.coordinates());
  if (small_first && solve_small(s, mf, a_f, residual, r)) return;
  if (options_.allow_sparse && sparse_gram::applicable(s) &&
      sparse_.factor(s, options_.rank_tolerance)) {
    sparse_.solve_into(residual, lambda_);  // into kept storage, the expression's arithmetic
    sparse_.transpose_times_into(lambda_, y_);
    mf.solve_in_place(y_);
    r.acceleration = a_f + y_;
    r.rank = m;
    set_constraint_force(s, a_f, r, work_);
    return;
  }
  // Range-space form of the augmented system: (A M^-1 A^T) lambda = b - A a_f, eq. 2.8.
  if (!small_first && solve_small(s, mf, a_f, residual, r)) return;
  mf.right_solve_upper(s.jacobian, a_hat_, a_hat_t_);
  const Eigen::MatrixXd& a_hat = a_hat_;
  gram_.noalias() = a_hat * a_hat.transpose();
  const Eigen::MatrixXd& gram = gram_;
  ldlt_.compute(gram);
  const auto& d = ldlt_.vectorD();
  const double scale = gram.diagonal().maxCoeff();
  const double tol2 = options_.rank_tolerance * options_.rank_tolerance;
  int rank = 0;
  for (Eigen::Index i = 0; i < d.size(); ++i) rank += d[i] > tol2 * scale ? 1 : 0;
  r.rank = rank;
  if (ldlt_.info() != Eigen::Success || rank < m) {
    // The pivots of the Gram matrix decide (squared, so the round-off of dependent rows can
    // pass the test and overstate the rank); the rank reported is the row-relative one of
    // GIGSP's sweep on A L^-T when that finds the deficiency too.
    const int swept = static_cast<int>(orthonormalize_rows(a_hat, residual, options_.rank_tolerance,
                                                           options_.consistency_tolerance,
                                                           options_.degenerate_tolerance)
                                           .kept.size());
    if (swept < m) rank = swept;
    r.rank = rank;
    r.status = solve_status::singular;
    r.message = fmt::format(
        "lm: the constraint Jacobian has rank {} < {} rows (redundant or degenerate constraints), "
        "so A M^-1 A^T is singular and the multipliers are not unique; use gigsp or uk, which "
        "handle redundant rows",
        rank, m);
    r.acceleration.resize(0);  // refused: no acceleration, as from a fresh result
    r.constraint_force.resize(0);
    return;
  }
  lambda_ = ldlt_.solve(residual);
  y_.noalias() = a_hat.transpose() * lambda_;
  mf.solve_upper_in_place(y_);
  r.acceleration = a_f + y_;
  set_constraint_force(s, a_f, r, work_);
}

}  // namespace kinevo::mechanics
