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

}  // namespace
}  // namespace kinevo::mechanics
