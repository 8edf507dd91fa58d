// The sweep's dot products and norms (detail/packet_order_sum.hpp) must equal Eigen's on the rows
// of a row-major matrix to the last bit, so that GIGSP's answers do not change.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <bit>
#include <cstdint>
#include <cstdlib>

#include "kinevo/mechanics/solvers/detail/packet_order_sum.hpp"

namespace kinevo::mechanics {
namespace {

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

TEST(PacketOrderSum, EqualsEigensReductionsToTheBit) {
  std::srand(11);
  for (Eigen::Index n = 1; n <= 40; ++n) {
    // Three rows, so that rows start at every alignment; values of mixed signs and magnitudes.
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> a(3, n);
    a.setRandom();
    a.row(1) *= 1e7;
    a.row(2) = a.row(2).array().cube() * 1e-3;
    for (Eigen::Index i = 0; i < 3; ++i) {
      const double* x = a.data() + i * a.outerStride();
      EXPECT_EQ(bits(detail::packet_order_squared_norm(x, n)), bits(a.row(i).squaredNorm()))
          << "n = " << n << ", row " << i;
      for (Eigen::Index j = 0; j < 3; ++j) {
        const double* y = a.data() + j * a.outerStride();
        EXPECT_EQ(bits(detail::packet_order_dot(x, y, n)), bits(a.row(i).dot(a.row(j))))
            << "n = " << n << ", rows " << i << ", " << j;
      }
    }
  }
}

// The residual b - A x of the small-system solvers and GIGSP's y + A^T z: every shape up to the
// hand loop's limit and a few beyond it (Eigen's kernel), values of mixed signs and magnitudes,
// zeros included.
TEST(PacketOrderSum, SmallProductsEqualEigensMatrixVectorProductsToTheBit) {
  std::srand(12);
  for (Eigen::Index m = 1; m <= 14; ++m) {
    for (Eigen::Index n = 1; n <= 16; ++n) {
      Eigen::MatrixXd a = Eigen::MatrixXd::Random(m, n);
      a.row(0) *= 1e7;
      a(m - 1, n - 1) = 0.0;
      Eigen::VectorXd x = Eigen::VectorXd::Random(n).array().cube() * 1e3;
      const Eigen::VectorXd b = Eigen::VectorXd::Random(m) * 1e-2;
      Eigen::VectorXd eigen = b;
      eigen.noalias() -= a * x;
      Eigen::VectorXd ours = b;
      detail::subtract_product(a, x, ours);
      for (Eigen::Index i = 0; i < m; ++i) {
        EXPECT_EQ(bits(ours[i]), bits(eigen[i])) << m << " x " << n << ", row " << i;
      }
      // y += A^T z, GIGSP's last product.
      const Eigen::VectorXd z = Eigen::VectorXd::Random(m).array().cube() * 1e2;
      const Eigen::VectorXd y0 = Eigen::VectorXd::Random(n);
      Eigen::VectorXd eigen_t = y0;
      eigen_t.noalias() += a.transpose() * z;
      Eigen::VectorXd ours_t = y0;
      detail::add_transpose_product(a, z, ours_t);
      for (Eigen::Index j = 0; j < n; ++j) {
        EXPECT_EQ(bits(ours_t[j]), bits(eigen_t[j])) << m << " x " << n << ", entry " << j;
      }
    }
  }
}

// M x for one block of M (a spatial body's 1 x 1 and 4 x 4 blocks) by the hand loop: blocks of 1
// to 4 rows inside a larger matrix (its stride), zeros of both signs in x, against Eigen's
// `y.noalias() = M.block(...) * x.segment(...)`.
TEST(PacketOrderSum, SmallBlockProductsEqualEigensToTheBit) {
  std::srand(13);
  Eigen::MatrixXd m = Eigen::MatrixXd::Random(11, 11);
  m.row(2) *= 1e7;
  Eigen::VectorXd x = Eigen::VectorXd::Random(11).array().cube() * 1e3;
  x[3] = 0.0;
  x[4] = -0.0;
  for (Eigen::Index size = 1; size <= detail::small_block_size; ++size) {
    for (Eigen::Index start = 0; start + size <= 11; ++start) {
      Eigen::VectorXd eigen = Eigen::VectorXd::Constant(11, 7.0);
      eigen.segment(start, size).noalias() =
          m.block(start, start, size, size) * x.segment(start, size);
      Eigen::VectorXd ours = Eigen::VectorXd::Constant(11, 7.0);
      if (!detail::assign_block_product(&m(start, start), m.rows(), size, x.data() + start,
                                        ours.data() + start)) {
        GTEST_SKIP() << "FMA build: Eigen's product is taken";
      }
      for (Eigen::Index i = 0; i < 11; ++i) {
        EXPECT_EQ(bits(ours[i]), bits(eigen[i])) << size << " at " << start << ", row " << i;
      }
    }
  }
  EXPECT_FALSE(detail::assign_block_product(m.data(), m.rows(), 5, x.data(), x.data()));
}

}  // namespace
}  // namespace kinevo::mechanics
