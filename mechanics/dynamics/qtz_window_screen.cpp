#include "kinevo/mechanics/dynamics/detail/qtz_window_screen.hpp"

#include <algorithm>
#include <cmath>

namespace kinevo::mechanics::detail {

namespace {

// M diagonal with a positive diagonal, or block-diagonal in at least two blocks of at most 16
// (particles, planar and spatial bodies): M^-1 stays sparse. A block that is not positive
// definite shows as a Gram matrix that is not finite.
bool sparse_mass(const constrained_system& s) {
  if (s.mass_is_diagonal) return (s.mass.diagonal().array() > 0.0).all();
  if (s.mass_blocks.size() < 2) return false;
  return std::all_of(s.mass_blocks.begin(), s.mass_blocks.end(),
                     [](const auto& block) { return block.second <= 16; });
}

bool all_finite(const Eigen::SparseMatrix<double>& g) {
  return Eigen::Map<const Eigen::VectorXd>(g.valuePtr(), g.nonZeros()).allFinite();
}

// The infinity norm (= the 1-norm) of the symmetric matrix with lower triangle `lower`.
double symmetric_norm(const Eigen::SparseMatrix<double>& lower) {
  Eigen::VectorXd row_sums = Eigen::VectorXd::Zero(lower.rows());
  for (Eigen::Index j = 0; j < lower.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(lower, j); it; ++it) {
      row_sums[it.row()] += std::abs(it.value());
      if (it.row() != j) row_sums[j] += std::abs(it.value());
    }
  }
  return row_sums.maxCoeff();
}

// The largest row norm of A from the diagonal of A A^T (lower triangle, diagonal indices).
double largest_row_norm(const Eigen::SparseMatrix<double>& lower,
                        const std::vector<int>& diagonal) {
  double largest = 0.0;
  for (const int d : diagonal) largest = std::max(largest, d < 0 ? 0.0 : lower.valuePtr()[d]);
  return std::sqrt(largest);
}

}  // namespace

bool qtz_window_screen::shifted_cholesky::positive_definite(
    const Eigen::SparseMatrix<double>& lower, const std::vector<int>& diagonal, double shift) {
  shifted_ = lower;
  for (const int d : diagonal) {
    if (d < 0) return false;  // a zero row
    shifted_.valuePtr()[d] -= shift;
  }
  if (!analysed_.matches(shifted_)) {
    llt_.analyzePattern(shifted_);
    analysed_.remember(shifted_);
  }
  llt_.factorize(shifted_);
  return llt_.info() == Eigen::Success;
}

bool qtz_window_screen::clear(const constrained_system& system, double pivot_ratio, double window) {
  const Eigen::MatrixXd& jacobian = system.jacobian;
  const Eigen::Index m = jacobian.rows();
  const Eigen::Index n = jacobian.cols();
  // (sparse_gram reads the sizes from b and f.)
  const bool sized = system.constraints() == m && system.coordinates() == n &&
                     system.mass.rows() == n && system.mass.cols() == n;
  if (!sized || m < qtz_window_screen_min_rows || m > n || system.compact ||
      system.jacobian_pattern.empty() || !sparse_mass(system)) {
    return false;
  }
  euclidean_.form(jacobian, system.jacobian_pattern);
  const Eigen::SparseMatrix<double>& euclidean = euclidean_.lower();
  if (!all_finite(euclidean)) return false;
  const double pivot_floor = pivot_ratio * largest_row_norm(euclidean, euclidean_.diagonal());
  if (!euclidean_test_.positive_definite(euclidean, euclidean_.diagonal(),
                                         pivot_floor * pivot_floor)) {
    return false;
  }
  const Eigen::SparseMatrix<double>& weighted = weighted_.gram(system);
  if (!all_finite(weighted)) return false;
  // The factor 1 + 1e-9 covers the round-off of the exact test's largest eigenvalue.
  return weighted_test_.positive_definite(
      weighted, weighted_.gram_diagonal(),
      window * window * symmetric_norm(weighted) * (1.0 + 1e-9));
}

}  // namespace kinevo::mechanics::detail
