#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseQR>

namespace kinevo::mechanics {

namespace {

// Every diagonal entry of R must be this factor clear of the rank tolerance.
constexpr double qtz_sparse_margin = 1e3;

// Like the solvers' sparse Gram path: below ~8 rows, or at more than a quarter filled, the dense
// factorisation is as fast.
bool qtz_sparse_worthwhile(const Eigen::MatrixXd& jacobian) {
  const auto m = static_cast<double>(jacobian.rows());
  const auto n = static_cast<double>(jacobian.cols());
  const auto nonzeros = static_cast<double>((jacobian.array() != 0.0).count());
  return m >= 8 && m < n && nonzeros <= 0.25 * m * n;
}

}  // namespace

std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance) {
  if (!qtz_sparse_worthwhile(jacobian)) return std::nullopt;
  const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
  Eigen::SparseMatrix<double> transposed = jacobian.transpose().sparseView();
  transposed.makeCompressed();
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
  qr.compute(transposed);
  if (qr.info() != Eigen::Success || qr.rank() != m) return std::nullopt;
  const Eigen::MatrixXd t =
      Eigen::MatrixXd(qr.matrixR().topLeftCorner(m, m)).triangularView<Eigen::Upper>();
  const Eigen::VectorXd diagonal = t.diagonal().cwiseAbs();
  if (!(diagonal.minCoeff() > qtz_sparse_margin * rank_tolerance * diagonal.maxCoeff())) {
    return std::nullopt;
  }
  qtz_decomposition d;
  d.rank = static_cast<int>(m);
  const Eigen::MatrixXd q = qr.matrixQ() * Eigen::MatrixXd::Identity(n, n);
  d.q1 = q.leftCols(m);
  d.q2 = q.rightCols(n - m);
  d.t = t;
  // C = Z P^T with Z = I.
  d.combination = Eigen::MatrixXd::Identity(m, m) * qr.colsPermutation().transpose();
  d.q1_hat = d.t.triangularView<Eigen::Upper>().solve(d.q1.transpose()).transpose();
  return d;
}

}  // namespace kinevo::mechanics
