#include "mechanics/sparse_gram.hpp"

#include <cmath>

namespace kinevo::mechanics {

bool sparse_gram::applicable(const constrained_system& s) {
  const auto m = static_cast<double>(s.constraints());
  const auto n = static_cast<double>(s.coordinates());
  // Below ~8 rows the dense sweep is as fast and has no set-up cost.
  return s.mass_is_diagonal && !s.jacobian_pattern.empty() && m >= 8 &&
         static_cast<double>(s.jacobian_pattern.size()) <= 0.25 * m * n;
}

bool sparse_gram::factor(const constrained_system& s, double rank_tolerance) {
  const Eigen::Index m = s.constraints(), n = s.coordinates();
  triplets_.clear();
  for (const auto& [r, c] : s.jacobian_pattern) triplets_.emplace_back(r, c, s.jacobian(r, c));
  a_.resize(m, n);
  a_.setFromTriplets(triplets_.begin(), triplets_.end());
  const Eigen::VectorXd w = s.mass.diagonal().cwiseInverse();
  aw_ = a_ * w.asDiagonal();
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

Eigen::VectorXd sparse_gram::transpose_times(const constrained_system&,
                                             const Eigen::VectorXd& y) const {
  return a_.transpose() * y;
}

Eigen::VectorXd sparse_gram::times(const constrained_system&, const Eigen::VectorXd& x) const {
  return a_ * x;
}

}  // namespace kinevo::mechanics
