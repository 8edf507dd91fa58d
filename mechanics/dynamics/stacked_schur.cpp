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
  // Phi_D and Phi_I in compressed columns (Phi_q's columns in D's and I's order).
  std::vector<Eigen::Triplet<double>> dependent, independent;
  dependent.reserve(static_cast<std::size_t>(jacobian.nonZeros()));
  for (Eigen::Index j = 0; j < jacobian.cols(); ++j) {
    const int p = position_[static_cast<std::size_t>(j)];
    for (Eigen::SparseMatrix<double>::InnerIterator it(jacobian, j); it; ++it) {
      if (p >= 0) {
        dependent.emplace_back(static_cast<int>(it.row()), p, it.value());
      } else {
        independent.emplace_back(static_cast<int>(it.row()), -1 - p, it.value());
      }
    }
  }
  block_.resize(m, m);
  block_.setFromTriplets(dependent.begin(), dependent.end());
  block_.makeCompressed();
  phi_i_.resize(m, k);
  phi_i_.setFromTriplets(independent.begin(), independent.end());
  phi_i_.makeCompressed();
  if (!pattern_.matches(block_)) {
    block_lu_.analyzePattern(block_);
    pattern_.remember(block_);
  }
  block_lu_.factorize(block_);
  return block_lu_.info() == Eigen::Success;
}

bool stacked_schur::factor(const Eigen::SparseMatrix<double>& jacobian,
                           const Eigen::MatrixXd& basis) {
  if (dependent_.size() != static_cast<std::size_t>(jacobian.rows())) choose_dependent(jacobian);
  if (!factor_block(jacobian)) {
    choose_again();
    return false;
  }
  const Eigen::Index m = jacobian.rows(), k = basis.rows();
  // Y^T = Phi_D^-T B_D^T: B_D's columns as rows of the right-hand side.
  y_t_.resize(m, k);
  for (Eigen::Index j = 0; j < m; ++j)
    y_t_.row(j) = basis.col(dependent_[static_cast<std::size_t>(j)]).transpose();
  if (!block_lu_.transpose_solve_in_place(y_t_) || !y_t_.allFinite()) {
    choose_again();
    return false;
  }
  y_ = y_t_.transpose();
  // S = B_I - Y Phi_I, column j of S over the nonzeros of column j of Phi_I.
  Eigen::MatrixXd schur(k, k);
  for (Eigen::Index j = 0; j < k; ++j) {
    schur.col(j) = basis.col(independent_[static_cast<std::size_t>(j)]);
    for (Eigen::SparseMatrix<double>::InnerIterator it(phi_i_, j); it; ++it)
      schur.col(j) -= it.value() * y_.col(it.row());
  }
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
  const Eigen::VectorXd x_i = schur_lu_.solve(rhs.tail(k) - y_ * rhs.head(m));
  const Eigen::VectorXd x_d = block_lu_.solve(Eigen::VectorXd(rhs.head(m) - phi_i_ * x_i));
  Eigen::VectorXd x(m + k);
  for (Eigen::Index j = 0; j < m; ++j) x[dependent_[static_cast<std::size_t>(j)]] = x_d[j];
  for (Eigen::Index j = 0; j < k; ++j) x[independent_[static_cast<std::size_t>(j)]] = x_i[j];
  return x;
}

}  // namespace kinevo::mechanics
