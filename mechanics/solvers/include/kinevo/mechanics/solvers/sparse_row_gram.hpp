// G = A A^T of a sparse A, formed at each call from A's values through a structure worked out
// once per pattern of A: G's entries as lists of products in the order of Eigen's product
// A * A^T (gram_structure.hpp), so the same numbers, and A's row-major copy. Shared by the
// Moore-Penrose inverse of the projection method (sparse_pseudo_inverse) and the windows' screen
// of qtz-reduced.
#pragma once

#include <Eigen/SparseCore>
#include <span>
#include <utility>
#include <vector>

#include "kinevo/mechanics/solvers/gram_structure.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"

namespace kinevo::mechanics {

class sparse_row_gram {
 public:
  // A is the sparse `a` (its pattern, as stored).
  void form(const Eigen::SparseMatrix<double>& a);
  // A is the dense `a`'s entries at `pattern` (row, column; the solvers'
  // constrained_system::jacobian_pattern, without duplicates).
  void form(const Eigen::MatrixXd& a, std::span<const std::pair<int, int>> pattern);

  const Eigen::SparseMatrix<double>& matrix() const { return a_; }
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& matrix_by_rows() const { return a_rows_; }
  // G's lower triangle, a fixed structure while A's pattern is unchanged.
  const Eigen::SparseMatrix<double>& lower() const { return gram_; }
  // The index of G_ii among lower()'s values (-1: a zero row of A).
  const std::vector<int>& diagonal() const { return terms_.diagonal; }
  // G's terms over A's values (matrix().valuePtr()): with other left values, A D A^T for a
  // diagonal D on the same structure (left value p: A's value p times D at its column).
  const gram_terms& terms() const { return terms_; }

 private:
  // G's structure and terms and a_rows_'s value order, from a_'s pattern.
  void analyse();
  // G's and a_rows_'s values from a_'s.
  void form_values();

  Eigen::SparseMatrix<double> a_, gram_;
  Eigen::SparseMatrix<double, Eigen::RowMajor> a_rows_;
  std::vector<Eigen::Index> row_source_;  // a_rows_'s values: their index among a_'s
  gram_terms terms_;
  // What the structure was made for: a sparse A's pattern, or a dense A's pattern list (with
  // each of a_'s values' index in the dense A); at most one of the two is set.
  sparse_pattern analysed_;
  std::vector<std::pair<int, int>> analysed_list_;
  Eigen::Index analysed_rows_ = -1, analysed_cols_ = -1;
  std::vector<Eigen::Index> list_index_, dense_source_;
};

}  // namespace kinevo::mechanics
