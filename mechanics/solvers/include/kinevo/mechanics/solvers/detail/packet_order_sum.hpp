// Dot products and squared norms of short contiguous rows, summed in the order of Eigen 3.4's
// vectorised reduction (Core/Redux.h, redux_impl for LinearVectorizedTraversal without unrolling,
// two-double SSE2 packets: two packet accumulators over blocks of four, their sum, one more
// packet, the horizontal sum, then the scalar tail), so the results equal Eigen's
// `a.dot(b)` and `a.squaredNorm()` on the rows of a row-major dynamic-size matrix to the last
// bit. The Gram-Schmidt sweep of GIGSP calls these on rows of 8-14 entries dozens of times per
// solve, where Eigen's per-call dispatch cost more than the arithmetic (70 % of a four-bar step).
// Only for builds whose packets are SSE2's (no AVX): the test
// `PacketOrderSum.EqualsEigensReductionsToTheBit` checks the equality on every size to 40.
#pragma once

#include <Eigen/Core>

namespace kinevo::mechanics::detail {

// sum_k p(k), k < n, in Eigen's order; p(k) is evaluated once per k.
template <class Term>
inline double packet_order_sum(Eigen::Index n, const Term& p) {
  if (n < 2) return n == 1 ? p(0) : 0.0;
  const Eigen::Index end = n & ~Eigen::Index{1}, end2 = n & ~Eigen::Index{3};
  double a0 = p(0), a1 = p(1);
  if (end > 2) {
    double b0 = p(2), b1 = p(3);
    for (Eigen::Index k = 4; k < end2; k += 4) {
      a0 += p(k);
      a1 += p(k + 1);
      b0 += p(k + 2);
      b1 += p(k + 3);
    }
    a0 += b0;
    a1 += b1;
    if (end > end2) {
      a0 += p(end2);
      a1 += p(end2 + 1);
    }
  }
  double s = a0 + a1;
  for (Eigen::Index k = end; k < n; ++k) s += p(k);
  return s;
}

// Other packet widths (AVX) or no vectorisation: Eigen's own reductions, whose order is then
// another one.
#if defined(EIGEN_VECTORIZE_SSE2) && !defined(EIGEN_VECTORIZE_AVX)
inline double packet_order_dot(const double* a, const double* b, Eigen::Index n) {
  return packet_order_sum(n, [a, b](Eigen::Index k) { return a[k] * b[k]; });
}

inline double packet_order_squared_norm(const double* a, Eigen::Index n) {
  return packet_order_sum(n, [a](Eigen::Index k) { return a[k] * a[k]; });
}
#else
inline double packet_order_dot(const double* a, const double* b, Eigen::Index n) {
  return Eigen::Map<const Eigen::RowVectorXd>(a, n).dot(Eigen::Map<const Eigen::RowVectorXd>(b, n));
}

inline double packet_order_squared_norm(const double* a, Eigen::Index n) {
  return Eigen::Map<const Eigen::RowVectorXd>(a, n).squaredNorm();
}
#endif

}  // namespace kinevo::mechanics::detail
