#include "mechanics/gigsp_solver.hpp"

#include <fmt/format.h>

#include "mechanics/solver_support.hpp"

namespace kinevo::mechanics {

std::string gigsp_solver::name() const {
  return "gigsp";
}

acceleration_result gigsp_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints();
  if (options_.allow_sparse && sparse_gram::applicable(s) &&
      sparse_.factor(s, options_.rank_tolerance)) {
    // Full row rank: A_1^T (b_1 - A_1 L^T a_f) = A L^-T G^-1 (b - A a_f) with G = T^-1 T^-T.
    const Eigen::VectorXd lambda = sparse_.solve(s.rhs - sparse_.times(s, a_f));
    r.acceleration = a_f + mf.solve(sparse_.transpose_times(s, lambda));
    r.rank = m;
    set_constraint_force(s, a_f, r);
    return r;
  }
  // Dense sweep, eq. 2.30: with g = L^-1 f = L^T a_f, a = L^-T (g + A_1^T (b_1 - A_1 g)).
  const bool threaded = options_.threads > 1;
  if (threaded && !pool_) pool_ = std::make_unique<row_worker_pool>(options_.threads);
  const Eigen::MatrixXd a_hat = threaded ? right_solve_upper_threaded(mf, s.jacobian, *pool_)
                                         : mf.right_solve_upper(s.jacobian);
  const gram_schmidt_rows gs =
      threaded ? orthonormalize_rows_threaded(a_hat, s.rhs, options_.rank_tolerance,
                                              options_.consistency_tolerance,
                                              options_.degenerate_tolerance, *pool_)
               : orthonormalize_rows(a_hat, s.rhs, options_.rank_tolerance,
                                     options_.consistency_tolerance, options_.degenerate_tolerance);
  r.rank = static_cast<int>(gs.kept.size());
  r.redundant = gs.redundant;
  r.inconsistent = gs.inconsistent;
  if (!gs.inconsistent.empty()) {
    r.status = solve_status::inconsistent;
    r.message = fmt::format(
        "gigsp: inconsistent constraints: {} {} dependent on earlier constraints but "
        "{} right-hand side disagrees, so no acceleration satisfies the set; correct the model",
        row_names(s, gs.inconsistent), gs.inconsistent.size() == 1 ? "is" : "are",
        gs.inconsistent.size() == 1 ? "its" : "their");
    return r;
  }
  const Eigen::VectorXd g = mf.solve_lower(s.force);
  const Eigen::VectorXd y = g + gs.q.transpose() * (gs.beta - gs.q * g);
  r.acceleration = mf.solve_upper(y);
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
