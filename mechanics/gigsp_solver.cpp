#include "kinevo/mechanics/gigsp_solver.hpp"

#include <fmt/format.h>

#include "kinevo/mechanics/solver_support.hpp"

namespace kinevo::mechanics {

std::string gigsp_solver::name() const {
  return "gigsp";
}

acceleration_result gigsp_solver::solve(const constrained_system& s) {
  if (auto bad = refuse_non_finite(s, name())) return *bad;  // before the threaded path
  const bool sparse = options_.allow_sparse && sparse_gram::applicable(s);
  if (options_.threads > 1 && !sparse) {
    if (!pool_)
      pool_ = std::make_unique<core::thread_pool>(options_.threads, "gigsp row worker thread",
                                                  "use fewer --threads");
    return gigsp_dense_threaded(s, options_.rank_tolerance, options_.consistency_tolerance,
                                options_.degenerate_tolerance, *pool_);
  }
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints();
  if (sparse && sparse_.factor(s, options_.rank_tolerance)) {
    // Full row rank: A_1^T (b_1 - A_1 L^T a_f) = A L^-T G^-1 (b - A a_f) with G = T^-1 T^-T.
    const Eigen::VectorXd lambda = sparse_.solve(s.rhs - sparse_.times(s, a_f));
    r.acceleration = a_f + mf.solve(sparse_.transpose_times(s, lambda));
    r.rank = m;
    set_constraint_force(s, a_f, r);
    return r;
  }
  // Dense sweep, eq. 2.30: with g = L^-1 f = L^T a_f, a = L^-T (g + A_1^T (b_1 - A_1 g)).
  const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
  const gram_schmidt_rows gs =
      orthonormalize_rows(a_hat, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                          options_.degenerate_tolerance);
  if (gigsp_diagnosis(s, gs, r)) return r;
  const Eigen::VectorXd g = mf.solve_lower(s.force);
  const Eigen::VectorXd y = g + gs.q.transpose() * (gs.beta - gs.q * g);
  r.acceleration = mf.solve_upper(y);
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
