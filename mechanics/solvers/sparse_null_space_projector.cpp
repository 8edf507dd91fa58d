#include "kinevo/mechanics/solvers/sparse_null_space_projector.hpp"

#include <algorithm>

namespace kinevo::mechanics {

namespace {

using sparse_iterator = Eigen::SparseMatrix<double>::InnerIterator;

// x = 0 - a y over p values: subtract_scaled on a zeroed x, bit for bit (0 - v rather than -v
// keeps the sign of a zero v).
void negated_scaled(double* x, double a, const double* y, Eigen::Index p) {
  for (Eigen::Index c = 0; c < p; ++c) x[c] = 0.0 - a * y[c];
}

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

void sparse_null_space_projector::gram_solve_of_columns(const sparse_pseudo_inverse& a_plus,
                                                        row_major_matrix& u) const {
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& a_rows = a_plus.matrix_by_rows();
  const auto k = static_cast<Eigen::Index>(b_.size());
  // (A A^T)^-1 A B: A B is the chosen columns of A, written row by row from A's rows, each row
  // zeroed just before its entries: zeroing the whole m x k block at once is a memset that
  // cost as much as the solve.
  u.resize(a_rows.rows(), k);
  for (Eigen::Index r = 0; r < a_rows.outerSize(); ++r) {
    double* row = u.data() + r * k;
    std::fill_n(row, k, 0.0);
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(a_rows, r); it; ++it) {
      const int j = position_in_b_[static_cast<std::size_t>(it.index())];
      if (j >= 0) row[j] = it.value();
    }
  }
  a_plus.gram_solve_in_place(u);
}

void sparse_null_space_projector::choose(const sparse_pseudo_inverse& a_plus,
                                         const std::vector<int>& b) {
  b_ = b;
  position_in_b_.assign(static_cast<std::size_t>(a_plus.matrix().cols()), -1);
  for (std::size_t j = 0; j < b_.size(); ++j) {
    position_in_b_[static_cast<std::size_t>(b_[j])] = static_cast<int>(j);
  }
}

void sparse_null_space_projector::columns_implicit(const sparse_pseudo_inverse& a_plus,
                                                   const std::vector<int>& b) {
  choose(a_plus, b);
  implicit_ = true;
  gram_solve_of_columns(a_plus, u_);
}

const row_major_matrix& sparse_null_space_projector::columns(const sparse_pseudo_inverse& a_plus,
                                                             const std::vector<int>& b) {
  const Eigen::SparseMatrix<double>& a = a_plus.matrix();
  const auto k = static_cast<Eigen::Index>(b.size());
  choose(a_plus, b);
  implicit_ = false;
  gram_solve_of_columns(a_plus, range_);
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

void sparse_null_space_projector::reduced_mass_implicit(const sparse_pseudo_inverse& a_plus,
                                                        const constrained_system& s,
                                                        Eigen::MatrixXd& out) {
  const Eigen::SparseMatrix<double>& a = a_plus.matrix();
  const sparse_row_gram& gram = a_plus.row_gram();
  const Eigen::Index m = a.rows();
  const auto k = static_cast<Eigen::Index>(b_.size());
  // A M A^T on A A^T's structure: the same terms with A's values scaled by M at their columns.
  scaled_a_.resize(static_cast<std::size_t>(a.nonZeros()));
  for (Eigen::Index c = 0; c < a.outerSize(); ++c) {
    for (sparse_iterator it(a, c); it; ++it) {
      scaled_a_[static_cast<std::size_t>(&it.value() - a.valuePtr())] = it.value() * s.mass(c, c);
    }
  }
  const Eigen::SparseMatrix<double>& lower = gram.lower();
  amat_.resize(static_cast<std::size_t>(lower.nonZeros()));
  gram.terms().form(scaled_a_.data(), a.valuePtr(), amat_.data());
  // A (M P_T) = A M B - (A M A^T) U, A M A^T symmetric from its lower triangle. A row's first
  // term is assigned rather than subtracted from zeros (the same values, without zeroing the
  // m x k block first).
  range_.resize(m, k);
  touched_.assign(static_cast<std::size_t>(m), 0);
  const auto subtract_row = [&](Eigen::Index row, double w, Eigen::Index from) {
    if (touched_[static_cast<std::size_t>(row)]) {
      subtract_scaled(&range_(row, 0), w, &u_(from, 0), k);
      return;
    }
    negated_scaled(&range_(row, 0), w, &u_(from, 0), k);
    touched_[static_cast<std::size_t>(row)] = 1;
  };
  for (Eigen::Index j = 0; j < lower.outerSize(); ++j) {
    for (Eigen::Index p = lower.outerIndexPtr()[j]; p < lower.outerIndexPtr()[j + 1]; ++p) {
      const Eigen::Index i = lower.innerIndexPtr()[p];
      const double w = amat_[static_cast<std::size_t>(p)];
      subtract_row(i, w, j);
      if (i != j) subtract_row(j, w, i);
    }
  }
  for (Eigen::Index i = 0; i < m; ++i) {
    if (!touched_[static_cast<std::size_t>(i)]) range_.row(i).setZero();
  }
  for (Eigen::Index j = 0; j < k; ++j) {
    const int column = b_[static_cast<std::size_t>(j)];
    for (sparse_iterator it(a, column); it; ++it) {
      range_(it.index(), j) += it.value() * s.mass(column, column);
    }
  }
  a_plus.gram_solve_in_place(range_);
  // Row j of M11 = B^T (M P_T) - (A B)^T (A A^T)^-1 A (M P_T), its first j + 1 values, with
  // B^T (M P_T) = M_B (I - (A^T U)_B).
  if (out.rows() != k || out.cols() != k) out.setZero(k, k);
  row_.resize(k);
  for (Eigen::Index j = 0; j < k; ++j) {
    const int column = b_[static_cast<std::size_t>(j)];
    const Eigen::Index length = j + 1;
    sparse_iterator first(a, column);
    if (!first) {  // a coordinate in no constraint: its column of P_N is e_column
      row_.head(length).setZero();
    } else {
      for (Eigen::Index c = 0; c < length; ++c) row_[c] = -first.value() * u_(first.index(), c);
      for (++first; first; ++first) {
        subtract_scaled(row_.data(), first.value(), &u_(first.index(), 0), length);
      }
    }
    row_[j] += 1.0;
    const double mass = s.mass(column, column);
    for (Eigen::Index c = 0; c < length; ++c) row_[c] *= mass;  // unrolled, unlike Eigen's loop
    for (sparse_iterator it(a, column); it; ++it) {
      subtract_scaled(row_.data(), it.value(), &range_(it.index(), 0), length);
    }
    for (Eigen::Index c = 0; c < length; ++c) out(j, c) = row_[c];
  }
}

const Eigen::MatrixXd& sparse_null_space_projector::reduced_mass(
    const sparse_pseudo_inverse& a_plus, const constrained_system& s) {
  reduced_mass(a_plus, s, m11_);
  return m11_;
}

void sparse_null_space_projector::reduced_mass(const sparse_pseudo_inverse& a_plus,
                                               const constrained_system& s, Eigen::MatrixXd& out) {
  if (implicit_) {
    reduced_mass_implicit(a_plus, s, out);
    return;
  }
  mass_times(s, p_t_, m_p_t_);
  project_rows_lower(a_plus, m_p_t_, out);
}

Eigen::VectorXd sparse_null_space_projector::transpose_times(const sparse_pseudo_inverse& a_plus,
                                                             const Eigen::VectorXd& v) const {
  if (!implicit_) return p_t_.transpose() * v;
  // B^T v - U^T (A v)
  const Eigen::VectorXd w = a_plus.matrix() * v;
  Eigen::VectorXd out = -(u_.transpose() * w);
  for (std::size_t j = 0; j < b_.size(); ++j) out[static_cast<Eigen::Index>(j)] += v[b_[j]];
  return out;
}

Eigen::VectorXd sparse_null_space_projector::times(const sparse_pseudo_inverse& a_plus,
                                                   const Eigen::VectorXd& z) const {
  if (!implicit_) return p_t_ * z;
  // B z - A^T (U z)
  Eigen::VectorXd out = -(a_plus.matrix().transpose() * (u_ * z));
  for (std::size_t j = 0; j < b_.size(); ++j) out[b_[j]] += z[static_cast<Eigen::Index>(j)];
  return out;
}

}  // namespace kinevo::mechanics
