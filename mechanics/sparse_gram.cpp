#include "kinevo/mechanics/sparse_gram.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>

namespace kinevo::mechanics {

bool sparse_gram::applicable(const constrained_system& s) {
  const auto m = static_cast<double>(s.constraints());
  const auto n = static_cast<double>(s.coordinates());
  // Below ~8 rows the dense sweep is as fast and has no set-up cost. M must be diagonal or
  // block-diagonal with small blocks (spatial bodies), so that M^-1 stays sparse.
  int largest_block = 0;
  for (const auto& [start, size] : s.mass_blocks) largest_block = std::max(largest_block, size);
  const bool sparse_mass = s.mass_is_diagonal || (s.mass_blocks.size() > 1 && largest_block <= 16);
  return sparse_mass && !s.jacobian_pattern.empty() && m >= 8 &&
         static_cast<double>(s.jacobian_pattern.size()) <= 0.25 * m * n;
}

bool sparse_gram::factor(const constrained_system& s, double rank_tolerance) {
  const Eigen::Index m = s.constraints(), n = s.coordinates();
  triplets_.clear();
  for (const auto& [r, c] : s.jacobian_pattern) triplets_.emplace_back(r, c, s.jacobian(r, c));
  a_.resize(m, n);
  a_.setFromTriplets(triplets_.begin(), triplets_.end());
  if (s.mass_is_diagonal) {
    const Eigen::VectorXd w = s.mass.diagonal().cwiseInverse();
    aw_ = a_ * w.asDiagonal();
  } else {
    aw_ = a_ * block_inverse(s);
  }
  at_ = a_.transpose();
  g_ = aw_ * at_;
  if (analysed_pattern_size_ != s.jacobian_pattern.size() || analysed_rows_ != m) {
    ldlt_.analyzePattern(g_);
    analysed_pattern_size_ = s.jacobian_pattern.size();
    analysed_rows_ = m;
  }
  ldlt_.factorize(g_);
  if (ldlt_.info() != Eigen::Success) return false;
  const Eigen::VectorXd d = ldlt_.vectorD();
  const Eigen::VectorXd diag = g_.diagonal();
  const double tol2 = rank_tolerance * rank_tolerance;
  for (Eigen::Index i = 0; i < m; ++i) {
    if (!(diag[i] > 0.0) || !(d[i] > tol2 * diag[i])) return false;
  }
  return true;
}

// M^-1 of a block-diagonal M, as a sparse matrix of the blocks' inverses.
Eigen::SparseMatrix<double> sparse_gram::block_inverse(const constrained_system& s) {
  inverse_triplets_.clear();
  for (const auto& [start, size] : s.mass_blocks) {
    const Eigen::MatrixXd inv = Eigen::LLT<Eigen::MatrixXd>(s.mass.block(start, start, size, size))
                                    .solve(Eigen::MatrixXd::Identity(size, size));
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j)
        if (inv(i, j) != 0.0) inverse_triplets_.emplace_back(start + i, start + j, inv(i, j));
  }
  Eigen::SparseMatrix<double> w(s.coordinates(), s.coordinates());
  w.setFromTriplets(inverse_triplets_.begin(), inverse_triplets_.end());
  return w;
}

Eigen::VectorXd sparse_gram::transpose_times(const constrained_system&,
                                             const Eigen::VectorXd& y) const {
  return a_.transpose() * y;
}

Eigen::VectorXd sparse_gram::times(const constrained_system&, const Eigen::VectorXd& x) const {
  return a_ * x;
}

}  // namespace kinevo::mechanics
