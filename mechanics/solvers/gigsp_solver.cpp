#include "kinevo/mechanics/solvers/gigsp_solver.hpp"

#include <fmt/format.h>

#include "kinevo/mechanics/solvers/detail/packet_order_sum.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string gigsp_solver::name() const {
  return "gigsp";
}

bool gigsp_solver::reads_compact() const {
  return options_.allow_sparse && options_.threads <= 1 && !dense_systems_;
}

acceleration_result gigsp_solver::solve(const constrained_system& s) {
  acceleration_result r;
  solve_into(s, r);
  return r;
}

// Every vector and matrix below is a member kept between solves: a simulation solves systems
// of the same sizes at every stage, so after the first one nothing is allocated.
void gigsp_solver::solve_into(const constrained_system& s, acceleration_result& r) {
  reset_result(r);
  if (auto bad = refuse_non_finite(s, name())) {  // before the threaded path
    r = std::move(*bad);
    return;
  }
  solve_finite(s, r);
}

// The solve once the system is known to be finite (a compact system's dense form is not checked
// again).
void gigsp_solver::solve_finite(const constrained_system& s, acceleration_result& r) {
  const bool sparse = options_.allow_sparse && sparse_gram::applicable(s);
  if (s.compact && !(sparse && options_.threads <= 1)) {
    // Only the sparse path reads a compact system; the others take its dense form, which the
    // model gives directly from the next solve on.
    dense_systems_ = true;
    dense_system_into(s, expanded_);
    solve_finite(expanded_, r);
    return;
  }
  if (!s.compact && sparse) dense_systems_ = false;  // a model the sparse path takes: compact again
  if (options_.threads > 1 && !sparse) {
    if (!pool_)
      pool_ = std::make_unique<core::thread_pool>(options_.threads, "gigsp row worker thread",
                                                  "use fewer --threads");
    r = gigsp_dense_threaded(s, options_.rank_tolerance, options_.consistency_tolerance,
                             options_.degenerate_tolerance, *pool_);
    return;
  }
  mass_factor& mf = mf_;
  Eigen::VectorXd& a_f = a_f_;
  if (auto done = start_solve(s, name(), mf, a_f, /*checked=*/true)) {
    r = std::move(*done);
    return;
  }
  const int m = s.constraints();
  if (sparse && sparse_.factor(s, options_.rank_tolerance)) {
    // Full row rank: A_1^T (b_1 - A_1 L^T a_f) = A L^-T G^-1 (b - A a_f) with G = T^-1 T^-T.
    // Into kept storage, the same arithmetic as the expression
    // a_f + M^-1 A^T G^-1 (b - A a_f).
    // lambda_ holds the m-vectors, work_ the n-vectors: one vector of both sizes would be
    // reallocated twice per solve.
    sparse_.times_into(a_f, lambda_);
    g_ = s.rhs - lambda_;
    sparse_.solve_into(g_, lambda_);
    sparse_.transpose_times_into(lambda_, y_);
    mf.solve_in_place(y_);
    r.acceleration = a_f + y_;
    r.rank = m;
    set_constraint_force(s, a_f, r, work_);
    return;
  }
  if (s.compact) {
    // A redundant row (the sparse factor refused it): the dense sweep on the dense form.
    dense_system_into(s, expanded_);
    solve_finite(expanded_, r);
    return;
  }
  // Dense sweep, eq. 2.30: with g = L^-1 f = L^T a_f, a = L^-T (g + A_1^T (b_1 - A_1 g)).
  mf.right_solve_upper(s.jacobian, a_hat_, a_hat_t_);
  orthonormalize_rows(a_hat_, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                      options_.degenerate_tolerance, sweep_work_, sweep_);
  const gram_schmidt_rows& gs = sweep_;
  if (gigsp_diagnosis(s, gs, r)) {
    r.acceleration.resize(0);  // refused: no acceleration, as from a fresh result
    r.constraint_force.resize(0);
    return;
  }
  g_ = s.force;
  mf.solve_lower_in_place(g_);
  // The order of Eigen's evaluation of g + Q^T (beta - Q g) (x = c; x -= P; y = g; y += P),
  // so that the answer is the same to the last bit as the expression's.
  lambda_ = gs.beta;
  detail::subtract_product(gs.q, g_, lambda_);
  y_ = g_;
  detail::add_transpose_product(gs.q, lambda_, y_);
  mf.solve_upper_in_place(y_);
  r.acceleration = y_;
  set_constraint_force(s, a_f, r, work_);
}

}  // namespace kinevo::mechanics
