#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace kinevo::mechanics {

void sparse_pseudo_inverse::analyse() {
  const detail::sparse_lists rows = detail::rows_of(a_);
  const auto triplets = detail::gram_structure(rows, detail::columns_of(a_), terms_);
  gram_.resize(a_.rows(), a_.rows());
  gram_.setFromTriplets(triplets.begin(), triplets.end());
  gram_.makeCompressed();
  if (static_cast<std::size_t>(gram_.nonZeros()) + 1 != terms_.first.size()) {
    throw std::logic_error("sparse_pseudo_inverse: A A^T's structure is not the one analysed");
  }
  // The symbolic analysis (in the natural order, an elimination tree) depends on the pattern
  // only, so the factor is the one a fresh analysis gives.
  ldlt_.analyzePattern(gram_);
  // A row-major copy's values are a_'s row by row, columns ascending: the order of `rows`.
  a_rows_ = a_;
  row_source_.clear();
  for (const auto& row : rows) {
    for (const auto& [k, index] : row) row_source_.push_back(index);
  }
}

bool sparse_pseudo_inverse::factor_values(double tolerance) {
  const double* a = a_.valuePtr();
  terms_.form(a, a, gram_.valuePtr());
  double* by_rows = a_rows_.valuePtr();
  for (std::size_t q = 0; q < row_source_.size(); ++q) by_rows[q] = a[row_source_[q]];
  ldlt_.factorize(gram_);
  if (ldlt_.info() != Eigen::Success) return false;
  return detail::rows_clear_of_dependence(ldlt_.vectorD(), gram_.valuePtr(), terms_.diagonal,
                                          tolerance);
}

bool sparse_pseudo_inverse::factor(const Eigen::SparseMatrix<double>& a, double tolerance) {
  if (a.isCompressed() && analysed_.matches(a)) {
    std::copy(a.valuePtr(), a.valuePtr() + a.nonZeros(), a_.valuePtr());
  } else {
    a_ = a;
    a_.makeCompressed();
    analyse();
    analysed_.remember(a_);
    analysed_list_.clear();
  }
  return factor_values(tolerance);
}

bool sparse_pseudo_inverse::factor(const Eigen::MatrixXd& a,
                                   std::span<const std::pair<int, int>> pattern, double tolerance) {
  if (analysed_list_.empty() || analysed_rows_ != a.rows() || analysed_cols_ != a.cols() ||
      !std::equal(pattern.begin(), pattern.end(), analysed_list_.begin(), analysed_list_.end())) {
    detail::sparse_structure(a.rows(), a.cols(), pattern, a_, list_index_, dense_source_);
    analyse();
    analysed_list_.assign(pattern.begin(), pattern.end());
    analysed_rows_ = a.rows();
    analysed_cols_ = a.cols();
    analysed_.forget();
  }
  double* values = a_.valuePtr();
  for (std::size_t p = 0; p < dense_source_.size(); ++p) values[p] = a.data()[dense_source_[p]];
  return factor_values(tolerance);
}

void sparse_pseudo_inverse::gram_solve_in_place(row_major_matrix& x) const {
  // L D L^T X = R in the natural order (no permutation): forward substitution through L's
  // columns, the diagonal, back substitution through L^T (L's columns again).
  const Eigen::SparseMatrix<double>& l = ldlt_.matrixL().nestedExpression();
  const Eigen::VectorXd& d = ldlt_.vectorD();
  const Eigen::Index m = l.cols(), p = x.cols();
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(l, j); it; ++it) {
      if (it.index() > j) subtract_scaled(&x(it.index(), 0), it.value(), &x(j, 0), p);
    }
  }
  for (Eigen::Index j = 0; j < m; ++j) x.row(j) /= d[j];
  for (Eigen::Index j = m - 1; j >= 0; --j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(l, j); it; ++it) {
      if (it.index() > j) subtract_scaled(&x(j, 0), it.value(), &x(it.index(), 0), p);
    }
  }
}

Eigen::VectorXd sparse_pseudo_inverse::solve(const Eigen::VectorXd& b) const {
  return a_.transpose() * Eigen::VectorXd(ldlt_.solve(b));
}

Eigen::SparseMatrix<double> sparse_from_pattern(const Eigen::MatrixXd& a,
                                                std::span<const std::pair<int, int>> pattern) {
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(pattern.size());
  for (const auto& [row, col] : pattern) entries.emplace_back(row, col, a(row, col));
  Eigen::SparseMatrix<double> s(a.rows(), a.cols());
  s.setFromTriplets(entries.begin(), entries.end());
  return s;
}

}  // namespace kinevo::mechanics
