#include "kinevo/mechanics/solvers/sparse_row_gram.hpp"

#include <algorithm>

namespace kinevo::mechanics {

void sparse_row_gram::analyse() {
  const sparse_lists rows = sparse_rows_of(a_);
  gram_structure(rows, sparse_columns_of(a_), terms_, gram_);
  // A row-major copy's values are a_'s row by row, columns ascending: the order of `rows`.
  a_rows_ = a_;
  row_source_.clear();
  for (const auto& row : rows) {
    for (const auto& [k, index] : row) row_source_.push_back(index);
  }
}

void sparse_row_gram::form_values() {
  const double* a = a_.valuePtr();
  terms_.form(a, a, gram_.valuePtr());
  double* by_rows = a_rows_.valuePtr();
  for (std::size_t q = 0; q < row_source_.size(); ++q) by_rows[q] = a[row_source_[q]];
}

void sparse_row_gram::form(const Eigen::SparseMatrix<double>& a) {
  if (a.isCompressed() && analysed_.matches(a)) {
    std::copy(a.valuePtr(), a.valuePtr() + a.nonZeros(), a_.valuePtr());
  } else {
    a_ = a;
    a_.makeCompressed();
    analyse();
    analysed_.remember(a_);
    analysed_list_.clear();
  }
  form_values();
}

void sparse_row_gram::form(const Eigen::MatrixXd& a, std::span<const std::pair<int, int>> pattern) {
  if (analysed_list_.empty() || analysed_rows_ != a.rows() || analysed_cols_ != a.cols() ||
      !std::equal(pattern.begin(), pattern.end(), analysed_list_.begin(), analysed_list_.end())) {
    sparse_structure(a.rows(), a.cols(), pattern, a_, list_index_, dense_source_);
    analyse();
    analysed_list_.assign(pattern.begin(), pattern.end());
    analysed_rows_ = a.rows();
    analysed_cols_ = a.cols();
    analysed_.forget();
  }
  double* values = a_.valuePtr();
  for (std::size_t p = 0; p < dense_source_.size(); ++p) values[p] = a.data()[dense_source_[p]];
  form_values();
}

}  // namespace kinevo::mechanics
