#include "kinevo/mechanics/solvers/detail/udwadia_kalaba_solver.hpp"

#include <fmt/format.h>

#include <Eigen/QR>

#include "kinevo/mechanics/solvers/detail/packet_order_sum.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string udwadia_kalaba_solver::name() const {
  return "uk";
}

acceleration_result udwadia_kalaba_solver::solve(const constrained_system& s) {
  acceleration_result r;
  solve_into(s, r);
  return r;
}

// The vectors, matrices and the decomposition are members kept between solves; the arithmetic
// is that of the expressions they replace (r = b; r -= A a_f for b - A a_f), bit for bit.
void udwadia_kalaba_solver::solve_into(const constrained_system& s, acceleration_result& r) {
  reset_result(r);
  if (auto done = start_solve(s, name(), mf_, a_f_)) {
    r = std::move(*done);
    return;
  }
  const int m = s.constraints();
  mf_.right_solve_upper(s.jacobian, a_hat_, a_hat_t_);
  residual_ = s.rhs;
  detail::subtract_product(s.jacobian, a_f_, residual_);
  cod_.setThreshold(options_.rank_tolerance);
  cod_.compute(a_hat_);
  // Minimum-norm least-squares solution: y = (A L^-T)^+ (b - A a_f).
  y_ = cod_.solve(residual_);
  mf_.solve_upper_in_place(y_);
  r.acceleration = a_f_ + y_;
  r.rank = static_cast<int>(cod_.rank());
  set_constraint_force(s, a_f_, r, work_);
  if (r.rank < m) {
    // Name the dependent rows the same way GIGSP does, for side-by-side diagnostics.
    orthonormalize_rows(a_hat_, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                        options_.degenerate_tolerance, sweep_work_, sweep_);
    r.redundant = sweep_.redundant;
    r.inconsistent = sweep_.inconsistent;
    if (!r.inconsistent.empty()) {
      r.status = solve_status::least_squares;
      r.message = fmt::format(
          "uk: the constraints are inconsistent ({} disagree with earlier rows); the "
          "acceleration is a least-squares compromise that satisfies none of them exactly",
          row_names(s, r.inconsistent));
    }
  }
}

}  // namespace kinevo::mechanics
