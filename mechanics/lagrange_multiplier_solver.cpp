#include "kinevo/mechanics/lagrange_multiplier_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>

#include "kinevo/mechanics/solver_support.hpp"

namespace kinevo::mechanics {

std::string lagrange_multiplier_solver::name() const {
  return "lm";
}

acceleration_result lagrange_multiplier_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints();
  const Eigen::VectorXd residual = s.rhs - s.jacobian * a_f;
  if (options_.allow_sparse && sparse_gram::applicable(s) &&
      sparse_.factor(s, options_.rank_tolerance)) {
    const Eigen::VectorXd lambda = sparse_.solve(residual);
    r.acceleration = a_f + mf.solve(sparse_.transpose_times(s, lambda));
    r.rank = m;
    set_constraint_force(s, a_f, r);
    return r;
  }
  // Range-space form of the augmented system: (A M^-1 A^T) lambda = b - A a_f, eq. 2.8.
  const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
  const Eigen::MatrixXd gram = a_hat * a_hat.transpose();
  Eigen::LDLT<Eigen::MatrixXd> ldlt(gram);
  const Eigen::VectorXd d = ldlt.vectorD();
  const double scale = gram.diagonal().maxCoeff();
  const double tol2 = options_.rank_tolerance * options_.rank_tolerance;
  int rank = 0;
  for (Eigen::Index i = 0; i < d.size(); ++i) rank += d[i] > tol2 * scale ? 1 : 0;
  r.rank = rank;
  if (ldlt.info() != Eigen::Success || rank < m) {
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
    return r;
  }
  const Eigen::VectorXd lambda = ldlt.solve(residual);
  r.acceleration = a_f + mf.solve_upper(a_hat.transpose() * lambda);
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
