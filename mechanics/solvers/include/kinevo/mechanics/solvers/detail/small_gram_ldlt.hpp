// The Gram matrix G = Â Â^T of a small system (Â = A L^-T, M = L L^T; the range-space form of
// the generalized-inverse dissertation (GIGSP), eq. 2.8) and its unpivoted LDL^T factor, for the
// Lagrange-multiplier solver's small models. At these sizes (a four-bar's 8 rows of 9, a spatial
// pendulum's 10 of 14) Eigen's dynamic-size GEMM and pivoting LDLT spend more in dispatch and
// bookkeeping than in arithmetic. Here Â is kept by columns with only their non-zero entries (a
// coordinate enters the rows of the one or two joints at its body), G is summed column by column
// as outer products of those entries (each G_ij in ascending column order, as a dot product of
// rows would be, with Â's zeros skipped), and the factor works inside G's envelope (L has no
// fill before a row's first non-zero), in storage kept between solves. The sums run in another
// order than Eigen's, so the answers agree with the general path's to round-off, not to the bit.
//
// The factor is accepted only when every pivot is safely positive: D_k > min_pivot_ratio G_kk
// (D_k / G_kk is the squared remainder of row k of Â after projecting out the rows before it,
// relative to its norm, as in the sparse Gram path) and D_k > margin * rank_tolerance^2 max G_ii
// (the general path's rank test with a margin). Otherwise the caller takes the general path,
// which decides and reports redundant, inconsistent or degenerate rows as before.
//
// Why a factor of our own and not Eigen's: Eigen has no envelope (profile) factorisation of a
// small dense matrix. Its LLT on storage of the same fixed capacity, with the same Gram matrix
// and the same pivot test on L_kk^2, was measured (callgrind, LM, instructions per RK4 step):
// four-bar 36,800 -> 48,700, slider-crank 34,000 -> 46,900, planar chain of 10 links
// 59,200 -> 79,900, i.e. back above half of MuJoCo's step (38,250 and 35,850 for the first two),
// and it differs from the general path by more than 1e-14 on one example state.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace kinevo::mechanics {

class small_gram_ldlt {
 public:
  static constexpr int max_rows = 48;
  static constexpr int max_columns = 160;
  // The row-relative pivot below which the factor is refused: a row of Â whose remainder after
  // the rows before it is under a tenth of its norm. The answers of a Gram matrix that nearly
  // loses rank depend on the order of its sums beyond 1e-14 (a parallelogram's states near its
  // redundant configuration: 7e-11 with 1e-6 here, 2e-13 with 1e-3; tests/mechanics/
  // test_small_gram_ldlt.cpp), so those are left to the general path, whose numbers they keep.
  static constexpr double min_pivot_ratio = 1e-2;
  // The factor of margin between the accepted pivots and the general path's rank threshold.
  static constexpr double rank_margin = 1e6;

  static bool fits(Eigen::Index rows, Eigen::Index columns) {
    return rows > 0 && rows <= max_rows && columns <= max_columns;
  }
  // Up to this many entries of A the small path is tried before the sparse Gram path too: a
  // planar chain of 10 links (10 x 20) takes 59,200 instructions per RK4 step by it against
  // 65,100 by the sparse path, a spatial chain of 10 links (40 x 70) 975,000 against 681,000.
  static constexpr Eigen::Index before_sparse_entries = 512;
  static bool prefer(Eigen::Index rows, Eigen::Index columns) {
    return fits(rows, columns) && rows * columns <= before_sparse_entries;
  }

  // Forms G from Â (m x n) and factors it; false when a pivot is not safely positive (the
  // general path decides then). Â's non-zeros are kept: the solves below read them. With
  // `column_scale`, Â is a_hat times the diagonal matrix of column_scale (A L^-T of a diagonal M:
  // A_ij (1 / sqrt(m_jj)), the numbers of mass_factor::right_solve_upper).
  bool factor(const Eigen::MatrixXd& a_hat, double rank_tolerance,
              const double* column_scale = nullptr);
  // lambda = G^-1 r.
  void solve(const Eigen::VectorXd& r, Eigen::VectorXd& lambda) const;
  // y = Â^T lambda.
  void transpose_times(const Eigen::VectorXd& lambda, Eigen::VectorXd& y) const;

 private:
  void compress_columns(const Eigen::MatrixXd& a_hat, const double* column_scale);
  void form_gram();
  bool factor_envelope(double rank_tolerance);

  Eigen::Index m_ = 0, n_ = 0;
  // Â's non-zeros column by column: column j's are [start_[j], start_[j + 1]) of values_ and
  // their rows in row_ (kept: resized only when the sizes grow).
  std::vector<double> values_;
  std::vector<int> row_, start_;
  // G's lower triangle, then L's strictly lower triangle in place (row-major, max_rows wide);
  // envelope_[i]: the first column of row i inside G's envelope.
  double l_[max_rows * max_rows] = {};
  double d_[max_rows] = {};
  int envelope_[max_rows] = {};
};

}  // namespace kinevo::mechanics
