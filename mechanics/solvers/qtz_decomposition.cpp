#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/core/householder_q.hpp"
#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"

#include <Eigen/QR>
#include <utility>

namespace kinevo::mechanics {

namespace {

qtz_decomposition without_constraints(Eigen::Index n) {
  qtz_decomposition d;
  d.q1.resize(n, 0);
  d.q2 = Eigen::MatrixXd::Identity(n, n);
  d.t.resize(0, 0);
  d.combination.resize(0, 0);
  d.q1_hat.resize(n, 0);
  return d;
}

// The column-pivoted complete orthogonal decomposition, Q formed whole.
qtz_decomposition decompose_qtz_dense(const Eigen::MatrixXd& jacobian, double rank_tolerance) {
  const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
  qtz_decomposition d;
  // Phi_q^T P = Q [T 0; 0 0] Z (Eigen: A P = Q T Z).
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(rank_tolerance);
  cod.compute(jacobian.transpose());
  const auto r = static_cast<Eigen::Index>(cod.rank());
  d.rank = static_cast<int>(r);
  const Eigen::MatrixXd q = householder_q(cod);  // n x n
  d.q1 = q.leftCols(r);
  d.q2 = q.rightCols(n - r);
  d.t = cod.matrixT().topLeftCorner(r, r).triangularView<Eigen::Upper>();
  // Z P^T: rows of the combined constraints. Z is m x m; P^T applied on the right of Z.
  // With full rank (r = m) there is no Z step and Z = I: Eigen 3.4.0's matrixZ() would apply
  // reflectors with uninitialised coefficients then (it only guards solve()), scaling rows of
  // Z by garbage.
  const Eigen::MatrixXd z =
      r < m ? Eigen::MatrixXd(cod.matrixZ()) : Eigen::MatrixXd::Identity(m, m);
  const Eigen::MatrixXd zpt = z * cod.colsPermutation().transpose();
  d.combination = zpt.topRows(r);
  // Q1^ = Q1 T^-T, i.e. T Q1^T^T = Q1^T.
  d.q1_hat = d.t.triangularView<Eigen::Upper>().solve(d.q1.transpose()).transpose();
  return d;
}

}  // namespace

Eigen::VectorXd qtz_decomposition::q1_hat_times(const Eigen::VectorXd& x) const {
  if (sparse) return sparse->q1_hat_times(x);
  return q1_hat * x;
}

Eigen::MatrixXd qtz_reduced_mass(const Eigen::MatrixXd& q2, const Eigen::MatrixXd& m_q2) {
  const Eigen::Index k = q2.cols();
  if (k < qtz_lower_mass_min_columns) return q2.transpose() * m_q2;
  Eigen::MatrixXd m_hat = Eigen::MatrixXd::Zero(k, k);
  m_hat.triangularView<Eigen::Lower>() = q2.transpose() * m_q2;
  return m_hat;
}

qtz_decomposition decompose_qtz(const Eigen::MatrixXd& jacobian, double rank_tolerance) {
  if (jacobian.rows() == 0) return without_constraints(jacobian.cols());
  // Moved out of the optional: a copy of its dense matrices cost 430,000 instructions per RK4
  // step of the 50-link chain's qtz-orthogonal.
  if (auto sparse = decompose_qtz_sparse(jacobian, rank_tolerance)) return std::move(*sparse);
  return decompose_qtz_dense(jacobian, rank_tolerance);
}

qtz_decomposition decompose_qtz(const Eigen::MatrixXd& jacobian, double rank_tolerance,
                                qtz_workspace& workspace, bool with_q2) {
  if (jacobian.rows() == 0) return without_constraints(jacobian.cols());
  if (auto sparse = decompose_qtz_sparse(jacobian, rank_tolerance, workspace.sparse, with_q2)) {
    return std::move(*sparse);
  }
  return decompose_qtz_dense(jacobian, rank_tolerance);
}

}  // namespace kinevo::mechanics
