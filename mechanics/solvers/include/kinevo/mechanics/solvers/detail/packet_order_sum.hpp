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

// Up to this many entries subtract_product loops by hand. Measured (callgrind, per RK4 step of
// the LM solver): a two-link chain's 2 x 4 saves 336 instructions; a four-bar's 8 x 9 costs 796
// more by hand than in Eigen's kernel, which takes two rows per packet.
inline constexpr Eigen::Index small_product_entries = 32;

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

// r -= A x for a column-major A of fewer than 128 columns, with the arithmetic of Eigen 3.4's
// column-major matrix-vector kernel (products/GeneralMatrixVector.h, one column block): per row
// the sum of A(i,j) x(j) over j in order from zero, then r(i) + (-1) times that sum, so the result
// equals `r.noalias() -= a * x` to the last bit. Without FMA contraction (none on the baseline
// x86-64 target; with FMA, Eigen's kernel). For the residual b - A a_f of a small system, where
// the kernel's set-up costs more than the products (a two-link chain: 165 instructions a call
// for 8 products). Larger A go to Eigen.
inline void subtract_product(const Eigen::MatrixXd& a, const Eigen::VectorXd& x,
                             Eigen::VectorXd& r) {
  const Eigen::Index m = a.rows(), n = a.cols();
#if defined(EIGEN_VECTORIZE_FMA)
  constexpr bool fused = true;  // Eigen's kernel fuses the products: its order is not this one
#else
  constexpr bool fused = false;
#endif
  if (fused || m * n > small_product_entries || n >= 128) {
    r.noalias() -= a * x;
    return;
  }
  const double* col = a.data();
  const double* xs = x.data();
  for (Eigen::Index i = 0; i < m; ++i) {
    double c = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) c += col[i + j * m] * xs[j];
    r[i] -= c;
  }
}

// y = B x for a size x size block B of a column-major matrix (b: its first entry, stride: the
// matrix's rows), size at most small_block_size, with the arithmetic of `y.noalias() = B * x`
// in Eigen 3.4: per row the sum of B(i,j) x(j) over j in order from zero (the column-major
// kernel, or for one row the product itself), so the same bits. M x for a spatial body's 1 x 1
// and 4 x 4 blocks of M, where Eigen's product set-up cost more than its 17 products. Without
// FMA contraction; with it, Eigen's product.
inline constexpr Eigen::Index small_block_size = 4;

inline bool assign_block_product(const double* b, Eigen::Index stride, Eigen::Index size,
                                 const double* x, double* y) {
#if defined(EIGEN_VECTORIZE_FMA)
  return false;  // Eigen's kernel fuses the products: the caller takes Eigen's product
#endif
  if (size > small_block_size) return false;
  for (Eigen::Index i = 0; i < size; ++i) {
    double c = 0.0;
    for (Eigen::Index j = 0; j < size; ++j) c += b[i + j * stride] * x[j];
    y[i] = c;
  }
  return true;
}

// y += A^T x for a column-major A (A^T is then row-major) with up to small_product_entries
// entries, in the order of Eigen 3.4's row-major matrix-vector kernel with two-double SSE2
// packets: per entry of y, two lane sums over the pairs of A's column (from zero), their sum,
// then the odd last term; so the result equals `y.noalias() += a.transpose() * x` to the last
// bit (one column: the dot product's order, which Eigen takes there). Other packet widths, FMA
// or larger A: Eigen's kernel.
inline void add_transpose_product(const Eigen::MatrixXd& a, const Eigen::VectorXd& x,
                                  Eigen::VectorXd& y) {
  const Eigen::Index m = a.rows(), n = a.cols();
#if defined(EIGEN_VECTORIZE_SSE2) && !defined(EIGEN_VECTORIZE_AVX) && !defined(EIGEN_VECTORIZE_FMA)
  constexpr bool two_lanes = true;
#else
  constexpr bool two_lanes = false;
#endif
  if (!two_lanes || m * n > small_product_entries) {
    y.noalias() += a.transpose() * x;
    return;
  }
  const double* xs = x.data();
  if (n == 1) {  // a single row times a vector: Eigen takes the dot product (GeneralProduct.h)
    y[0] += packet_order_dot(a.data(), xs, m);
    return;
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const double* col = a.data() + i * m;
    double l0 = 0.0, l1 = 0.0;
    Eigen::Index j = 0;
    for (; j + 2 <= m; j += 2) {
      l0 += col[j] * xs[j];
      l1 += col[j + 1] * xs[j + 1];
    }
    double c = l0 + l1;
    for (; j < m; ++j) c += col[j] * xs[j];
    y[i] += c;
  }
}

}  // namespace kinevo::mechanics::detail
