#include "kinevo/mechanics/solvers/detail/kim_vanderploeg_solver.hpp"
#include "kinevo/core/householder_q.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string kim_vanderploeg_solver::name() const {
  return "kv";
}

acceleration_result kim_vanderploeg_solver::solve(const constrained_system& s) {
  acceleration_result r;
  solve_into(s, r);
  return r;
}

// The decompositions, vectors and matrices are members kept between solves; the arithmetic is
// that of a fresh solve, bit for bit.
void kim_vanderploeg_solver::solve_into(const constrained_system& s, acceleration_result& r) {
  reset_result(r);
  if (auto done = start_solve(s, name(), mf_, a_f_)) {
    r = std::move(*done);
    return;
  }
  const int m = s.constraints(), n = s.coordinates();
  // Eq. 4.7: A^T P = [Q_1 Q_2] R; the pivoted columns of A^T are the independent rows of A.
  qr_.setThreshold(options_.rank_tolerance);
  qr_.compute(s.jacobian.transpose());
  const int rank = static_cast<int>(qr_.rank());
  q_ = householder_q(qr_);
  const auto& perm = qr_.colsPermutation().indices();
  b_i_.resize(rank);
  for (int k = 0; k < rank; ++k) b_i_[k] = s.rhs[perm[k]];
  // Eqs. 4.3-4.4: A_I Q_1 = R_11^T, so the particular solution is Q_1 R_11^-T b_I.
  const Eigen::MatrixXd r11 =
      qr_.matrixR().topLeftCorner(rank, rank).triangularView<Eigen::Upper>();
  const Eigen::VectorXd w = r11.transpose().triangularView<Eigen::Lower>().solve(b_i_);
  a_ = q_.leftCols(rank) * w;
  if (rank < n) {
    // Eqs. 4.5-4.6: Q_2 spans the null space of A; M_hat = Q_2^T M Q_2.
    q2_ = q_.rightCols(n - rank);
    mq2_ = s.mass * q2_;
    reduced_mass_ = q2_.transpose() * mq2_;
    reduced_llt_.compute(reduced_mass_);
    a_ += q2_ * reduced_llt_.solve(q2_.transpose() * (s.force - s.mass * a_));
  }
  r.rank = rank;
  // Rows left out of the independent set must be satisfied too, or they are inconsistent.
  res_ = s.jacobian * a_ - s.rhs;
  const double b_scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
  for (int k = rank; k < m; ++k) {
    const int row = perm[k];
    const double scale = b_scale + s.jacobian.row(row).norm() * a_.norm();
    if (std::abs(res_[row]) > options_.consistency_tolerance * scale) {
      r.inconsistent.push_back(row);
    } else {
      r.redundant.push_back(row);
    }
  }
  std::sort(r.redundant.begin(), r.redundant.end());
  std::sort(r.inconsistent.begin(), r.inconsistent.end());
  if (!r.inconsistent.empty()) {
    r.status = solve_status::inconsistent;
    r.message = fmt::format("kv: inconsistent constraints: {} cannot hold together with the others",
                            row_names(s, r.inconsistent));
    r.acceleration.resize(0);  // refused: no acceleration, as from a fresh result
    r.constraint_force.resize(0);
    return;
  }
  r.acceleration = a_;
  set_constraint_force(s, a_f_, r, work_);
}

}  // namespace kinevo::mechanics
