#include "kinevo/mechanics/solvers/detail/singh_likins_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string singh_likins_solver::name() const {
  return "sl";
}

acceleration_result singh_likins_solver::solve(const constrained_system& s) {
  acceleration_result r;
  solve_into(s, r);
  return r;
}

// The vectors, matrices and the reduced mass factor are members kept between solves; the
// arithmetic is that of a fresh solve, bit for bit.
void singh_likins_solver::solve_into(const constrained_system& s, acceleration_result& r) {
  reset_result(r);
  if (auto done = start_solve(s, name(), mf_, a_f_)) {
    r = std::move(*done);
    return;
  }
  const int m = s.constraints(), n = s.coordinates();
  // Eq. 4.2: A = U S V^T = [U_1 U_2] S [V_1 V_2]^T; V_2 spans the null space of A.
  // A fresh decomposition at every solve: Eigen 3.4's BDCSVD skips zeroing its divide-and-
  // conquer storage when compute() meets the sizes of the previous call.
  Eigen::BDCSVD<Eigen::MatrixXd> svd(s.jacobian, Eigen::ComputeThinU | Eigen::ComputeFullV);
  svd.setThreshold(options_.rank_tolerance);
  const int rank = static_cast<int>(svd.rank());
  a_p_ = svd.solve(s.rhs);  // A^+ b
  r.acceleration = a_p_;
  if (rank < n) {
    // Eq. 4.1: a = A^+ b + V_2 (V_2^T M V_2)^-1 (V_2^T f - V_2^T M A^+ b).
    v2_ = svd.matrixV().rightCols(n - rank);
    mv2_ = s.mass * v2_;
    reduced_mass_ = v2_.transpose() * mv2_;
    reduced_llt_.compute(reduced_mass_);
    r.acceleration += v2_ * reduced_llt_.solve(v2_.transpose() * s.force - mv2_.transpose() * a_p_);
  }
  r.rank = rank;
  set_constraint_force(s, a_f_, r, work_);
  if (rank < m) {
    mf_.right_solve_upper(s.jacobian, a_hat_, a_hat_t_);
    orthonormalize_rows(a_hat_, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                        options_.degenerate_tolerance, sweep_work_, sweep_);
    r.redundant = sweep_.redundant;
    r.inconsistent = sweep_.inconsistent;
    if (!r.inconsistent.empty()) {
      r.status = solve_status::least_squares;
      r.message = fmt::format(
          "sl: the constraints are inconsistent ({} disagree with earlier rows); A^+ b makes "
          "the acceleration a least-squares compromise",
          row_names(s, r.inconsistent));
    }
  }
}

}  // namespace kinevo::mechanics
