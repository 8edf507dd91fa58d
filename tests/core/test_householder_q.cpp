// householder_q* (compiled once in kinevo_core) against their definition: Q orthogonal and
// Q R (with the decomposition's permutation) equal to the matrix that was decomposed.
#include "kinevo/core/householder_q.hpp"

#include <gtest/gtest.h>

namespace {

Eigen::MatrixXd sample_matrix(Eigen::Index rows, Eigen::Index cols) {
  Eigen::MatrixXd a(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j) {
    for (Eigen::Index i = 0; i < rows; ++i) a(i, j) = std::sin(1.0 + 3.0 * i + 7.0 * j * j);
  }
  // sin(1 + 3i + 7j) alone would have rank 2 (a sum of two products); the diagonal makes it full.
  a.diagonal().array() += 2.0;
  return a;
}

void expect_orthogonal(const Eigen::MatrixXd& q) {
  const auto n = q.cols();
  EXPECT_LT((q.transpose() * q - Eigen::MatrixXd::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-13);
}

TEST(HouseholderQ, QRReproducesTheMatrix) {
  const Eigen::MatrixXd a = sample_matrix(6, 4);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
  const Eigen::MatrixXd q = kinevo::householder_q(qr);
  ASSERT_EQ(q.rows(), 6);
  ASSERT_EQ(q.cols(), 6);
  expect_orthogonal(q);
  const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
  EXPECT_LT((q * r - a).cwiseAbs().maxCoeff(), 1e-13);
  const Eigen::MatrixXd thin = kinevo::householder_q_columns(qr, 4);
  EXPECT_EQ((thin - q.leftCols(4)).cwiseAbs().maxCoeff(), 0.0);
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(6, -1.0, 2.0);
  EXPECT_LT((kinevo::householder_q_times(qr, v) - q * v).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(HouseholderQ, PivotedAndCompleteDecompositionsReproduceTheMatrix) {
  const Eigen::MatrixXd a = sample_matrix(5, 5);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  const Eigen::MatrixXd q = kinevo::householder_q(qr);
  expect_orthogonal(q);
  const Eigen::MatrixXd r = qr.matrixR().triangularView<Eigen::Upper>();
  EXPECT_LT((q * r - a * qr.colsPermutation()).cwiseAbs().maxCoeff(), 1e-13);
  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
  ASSERT_EQ(cod.rank(), 5);
  const Eigen::MatrixXd qc = kinevo::householder_q(cod);
  expect_orthogonal(qc);
  // Full column rank: COD takes no Z step, so A P = Q T (Eigen 3.4.0's matrixZ() would read
  // reflector coefficients it never set here).
  const Eigen::MatrixXd t = cod.matrixT().triangularView<Eigen::Upper>();
  EXPECT_LT((qc * t - a * cod.colsPermutation()).cwiseAbs().maxCoeff(), 1e-13);
}

}  // namespace
