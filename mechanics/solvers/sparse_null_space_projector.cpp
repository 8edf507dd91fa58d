#include "kinevo/mechanics/solvers/sparse_null_space_projector.hpp"

namespace kinevo::mechanics {

namespace {

using sparse_iterator = Eigen::SparseMatrix<double>::InnerIterator;

// M X for a row-major X: a diagonal M scales rows, a block-diagonal one multiplies block by
// block, otherwise the dense product.
void mass_times(const constrained_system& s, const row_major_matrix& x, row_major_matrix& out) {
  if (s.mass_is_diagonal) {
    out.resize(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) out.row(i) = s.mass(i, i) * x.row(i);
    return;
  }
  if (s.mass_blocks.empty()) {
    out = s.mass * x;
    return;
  }
  out.resize(x.rows(), x.cols());
  for (const auto& [first, size] : s.mass_blocks) {
    out.middleRows(first, size) =
        s.mass.block(first, first, size, size) * x.middleRows(first, size);
  }
}

}  // namespace

const row_major_matrix& sparse_null_space_projector::columns(const sparse_pseudo_inverse& a_plus,
                                                             const std::vector<int>& b) {
  const Eigen::SparseMatrix<double>& a = a_plus.matrix();
  const auto k = static_cast<Eigen::Index>(b.size());
  b_ = b;
  // (A A^T)^-1 A B: A B is the chosen columns of A.
  range_.setZero(a.rows(), k);
  for (Eigen::Index j = 0; j < k; ++j) {
    for (sparse_iterator it(a, b[static_cast<std::size_t>(j)]); it; ++it) {
      range_(it.index(), j) = it.value();
    }
  }
  a_plus.gram_solve_in_place(range_);
  // P_T = B - A^T (A A^T)^-1 A B: row i of A^T (A A^T)^-1 A B combines the rows of the solve at
  // the nonzeros of column i of A.
  p_t_.resize(a.cols(), k);
  for (Eigen::Index i = 0; i < a.outerSize(); ++i) {
    sparse_iterator it(a, i);
    if (!it) {
      p_t_.row(i).setZero();
      continue;
    }
    p_t_.row(i) = -it.value() * range_.row(it.index());
    for (++it; it; ++it) subtract_scaled(&p_t_(i, 0), it.value(), &range_(it.index(), 0), k);
  }
  for (Eigen::Index j = 0; j < k; ++j) p_t_(b[static_cast<std::size_t>(j)], j) += 1.0;
  return p_t_;
}

void sparse_null_space_projector::project_rows_lower(const sparse_pseudo_inverse& a_plus,
                                                     const row_major_matrix& x,
                                                     Eigen::MatrixXd& out) {
  const Eigen::SparseMatrix<double>& a = a_plus.matrix();
  // A X row by row (A's rows, from its row-major copy), each row assigned once.
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& a_rows = a_plus.matrix_by_rows();
  range_.resize(a.rows(), x.cols());
  for (Eigen::Index r = 0; r < a_rows.outerSize(); ++r) {
    Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(a_rows, r);
    if (!it) {
      range_.row(r).setZero();
      continue;
    }
    range_.row(r) = it.value() * x.row(it.index());
    for (++it; it; ++it) {
      subtract_scaled(&range_(r, 0), -it.value(), &x(it.index(), 0), x.cols());
    }
  }
  a_plus.gram_solve_in_place(range_);
  const auto k = static_cast<Eigen::Index>(b_.size());
  if (out.rows() != k || out.cols() != k) out.setZero(k, k);
  row_.resize(k);
  // Each value is the one the whole row gives (the same operations, value by value).
  for (Eigen::Index j = 0; j < k; ++j) {
    const int column = b_[static_cast<std::size_t>(j)];
    const Eigen::Index length = j + 1;
    row_.head(length) = x.row(column).head(length).transpose();
    for (sparse_iterator it(a, column); it; ++it) {
      subtract_scaled(row_.data(), it.value(), &range_(it.index(), 0), length);
    }
    for (Eigen::Index c = 0; c < length; ++c) out(j, c) = row_[c];
  }
}

const Eigen::MatrixXd& sparse_null_space_projector::reduced_mass(
    const sparse_pseudo_inverse& a_plus, const constrained_system& s) {
  mass_times(s, p_t_, m_p_t_);
  project_rows_lower(a_plus, m_p_t_, m11_);
  return m11_;
}

}  // namespace kinevo::mechanics
