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
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints(), n = s.coordinates();
  // Eq. 4.7: A^T P = [Q_1 Q_2] R; the pivoted columns of A^T are the independent rows of A.
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
  qr.setThreshold(options_.rank_tolerance);
  qr.compute(s.jacobian.transpose());
  const int rank = static_cast<int>(qr.rank());
  const Eigen::MatrixXd q = householder_q(qr);
  const auto& perm = qr.colsPermutation().indices();
  Eigen::VectorXd b_i(rank);
  for (int k = 0; k < rank; ++k) b_i[k] = s.rhs[perm[k]];
  // Eqs. 4.3-4.4: A_I Q_1 = R_11^T, so the particular solution is Q_1 R_11^-T b_I.
  const Eigen::MatrixXd r11 = qr.matrixR().topLeftCorner(rank, rank).triangularView<Eigen::Upper>();
  const Eigen::VectorXd w = r11.transpose().triangularView<Eigen::Lower>().solve(b_i);
  Eigen::VectorXd a = q.leftCols(rank) * w;
  if (rank < n) {
    // Eqs. 4.5-4.6: Q_2 spans the null space of A; M_hat = Q_2^T M Q_2.
    const Eigen::MatrixXd q2 = q.rightCols(n - rank);
    const Eigen::MatrixXd mq2 = s.mass * q2;
    const Eigen::LLT<Eigen::MatrixXd> k(q2.transpose() * mq2);
    a += q2 * k.solve(q2.transpose() * (s.force - s.mass * a));
  }
  r.rank = rank;
  // Rows left out of the independent set must be satisfied too, or they are inconsistent.
  const Eigen::VectorXd res = s.jacobian * a - s.rhs;
  const double b_scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
  for (int k = rank; k < m; ++k) {
    const int row = perm[k];
    const double scale = b_scale + s.jacobian.row(row).norm() * a.norm();
    if (std::abs(res[row]) > options_.consistency_tolerance * scale) {
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
    return r;
  }
  r.acceleration = a;
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
