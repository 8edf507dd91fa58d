#include "kinevo/mechanics/dynamics/detail/stacked_schur.hpp"

#include <Eigen/QR>
#include <algorithm>

namespace kinevo::mechanics {

bool stacked_schur::suits(const Eigen::SparseMatrix<double>& jacobian,
                          const Eigen::MatrixXd& basis) {
  const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
  return m >= min_rows && basis.cols() == n && m + basis.rows() == n &&
         static_cast<double>(jacobian.nonZeros()) <=
             0.25 * static_cast<double>(m) * static_cast<double>(n);
}

// The first m pivot columns of the column-pivoted QR of Phi_q: a regular, well-conditioned
// Phi_D at the state it is chosen at.
void stacked_schur::choose_dependent(const Eigen::SparseMatrix<double>& jacobian) {
  const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr{Eigen::MatrixXd(jacobian)};
  const auto& order = qr.colsPermutation().indices();
  std::vector<char> is_dependent(static_cast<std::size_t>(n), 0);
  for (Eigen::Index j = 0; j < m; ++j) is_dependent[static_cast<std::size_t>(order[j])] = 1;
  dependent_.clear();
  independent_.clear();
  position_.assign(static_cast<std::size_t>(n), 0);
  for (int j = 0; j < static_cast<int>(n); ++j) {
    auto& list = is_dependent[static_cast<std::size_t>(j)] != 0 ? dependent_ : independent_;
    position_[static_cast<std::size_t>(j)] = is_dependent[static_cast<std::size_t>(j)] != 0
                                                 ? static_cast<int>(list.size())
                                                 : -1 - static_cast<int>(list.size());
    list.push_back(j);
  }
  pattern_.forget();  // a new block: analysed afresh
}

bool stacked_schur::factor_block(const Eigen::SparseMatrix<double>& jacobian) {
  const Eigen::Index m = jacobian.rows();
  const auto k = static_cast<Eigen::Index>(independent_.size());
  // Phi_D in compressed columns (Phi_q's columns in D's order), Phi_I dense.
  Eigen::MatrixXd phi_i = Eigen::MatrixXd::Zero(m, k);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(jacobian.nonZeros()));
  for (Eigen::Index j = 0; j < jacobian.cols(); ++j) {
    const int p = position_[static_cast<std::size_t>(j)];
    for (Eigen::SparseMatrix<double>::InnerIterator it(jacobian, j); it; ++it) {
      if (p >= 0) {
        entries.emplace_back(static_cast<int>(it.row()), p, it.value());
      } else {
        phi_i(it.row(), -1 - p) = it.value();
      }
    }
  }
  block_.resize(m, m);
  block_.setFromTriplets(entries.begin(), entries.end());
  block_.makeCompressed();
  if (!pattern_.matches(block_)) {
    block_lu_.analyzePattern(block_);
    pattern_.remember(block_);
  }
  block_lu_.factorize(block_);
  if (block_lu_.info() != Eigen::Success) return false;
  w_ = block_lu_.solve(phi_i);
  return w_.allFinite();
}

bool stacked_schur::factor(const Eigen::SparseMatrix<double>& jacobian,
                           const Eigen::MatrixXd& basis) {
  if (dependent_.size() != static_cast<std::size_t>(jacobian.rows())) choose_dependent(jacobian);
  if (!factor_block(jacobian)) {
    choose_again();
    return false;
  }
  const Eigen::Index m = jacobian.rows(), k = basis.rows();
  b_d_.resize(k, m);
  Eigen::MatrixXd schur(k, k);
  for (Eigen::Index j = 0; j < m; ++j)
    b_d_.col(j) = basis.col(dependent_[static_cast<std::size_t>(j)]);
  for (Eigen::Index j = 0; j < k; ++j)
    schur.col(j) = basis.col(independent_[static_cast<std::size_t>(j)]);
  schur.noalias() -= b_d_ * w_;
  schur_lu_.compute(schur);
  const Eigen::VectorXd pivots = schur_lu_.matrixLU().diagonal();
  if (!pivots.allFinite() || (pivots.array() == 0.0).any()) {
    choose_again();
    return false;
  }
  return true;
}

Eigen::VectorXd stacked_schur::solve(const Eigen::VectorXd& rhs) const {
  const auto m = static_cast<Eigen::Index>(dependent_.size());
  const auto k = static_cast<Eigen::Index>(independent_.size());
  const Eigen::VectorXd y = block_lu_.solve(rhs.head(m));  // Phi_D^-1 r1
  const Eigen::VectorXd x_i = schur_lu_.solve(rhs.tail(k) - b_d_ * y);
  const Eigen::VectorXd x_d = y - w_ * x_i;
  Eigen::VectorXd x(m + k);
  for (Eigen::Index j = 0; j < m; ++j) x[dependent_[static_cast<std::size_t>(j)]] = x_d[j];
  for (Eigen::Index j = 0; j < k; ++j) x[independent_[static_cast<std::size_t>(j)]] = x_i[j];
  return x;
}

}  // namespace kinevo::mechanics
