// The Moore-Penrose inverse of a sparse A of full row rank, A^+ = A^T (A A^T)^-1, applied through
// the sparse LDL^T of G = A A^T in the natural row order. In that order D_i / G_ii is the squared
// remainder of row i after Gram-Schmidt against the rows before it, relative to its norm (the
// row-relative redundancy test of the solvers' sparse Gram path, in the Euclidean metric);
// factor() refuses a row whose remainder is below the given tolerance, so that a rank-deficient
// or nearly rank-deficient A is left to the dense rank-revealing factorisations.
// G's structure, its terms in the order of Eigen's product A * A^T (detail/gram_structure.hpp),
// A's row-major copy and the factor's symbolic analysis are made once per pattern of A: a
// simulation forms G at each state by a loop over flat arrays, with the product's numbers.
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <span>
#include <utility>

#include "kinevo/mechanics/solvers/detail/gram_structure.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"

namespace kinevo::mechanics {

using row_major_matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// x -= a y over p contiguous values (two rows of a row-major block): a plain loop the compiler
// vectorises, without the alignment checks of an Eigen row expression, which weigh at p ~ 50.
inline void subtract_scaled(double* x, double a, const double* y, Eigen::Index p) {
  for (Eigen::Index c = 0; c < p; ++c) x[c] -= a * y[c];
}

class sparse_pseudo_inverse {
 public:
  // Factors A A^T; false when a row's relative remainder is not above `tolerance` (or the
  // factorisation fails).
  bool factor(const Eigen::SparseMatrix<double>& a, double tolerance);
  // The same for the sparse A with the entries of the dense `a` at `pattern` (row, column; the
  // solvers' constrained_system::jacobian_pattern), without building A as a new matrix.
  bool factor(const Eigen::MatrixXd& a, std::span<const std::pair<int, int>> pattern,
              double tolerance);
  // (A A^T)^-1 r (size m, or m x p).
  Eigen::MatrixXd gram_solve(const Eigen::MatrixXd& r) const { return ldlt_.solve(r); }
  // (A A^T)^-1 X in place for a row-major m x p X: the LDL^T factor's entries each update a
  // whole row of X (vectorised over its p columns), where gram_solve runs column by column.
  void gram_solve_in_place(row_major_matrix& x) const;
  // A^+ b = A^T (A A^T)^-1 b.
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  const Eigen::SparseMatrix<double>& matrix() const { return a_; }
  // A in row-major storage (made by factor()).
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& matrix_by_rows() const { return a_rows_; }

 private:
  // G's structure and terms, a_rows_ and ldlt_'s analysis, from a_'s pattern.
  void analyse();
  // G's values from a_'s, a_rows_'s values, the factorisation and the rows' test.
  bool factor_values(double tolerance);

  Eigen::SparseMatrix<double> a_, gram_;  // gram_: G's lower triangle
  Eigen::SparseMatrix<double, Eigen::RowMajor> a_rows_;
  std::vector<Eigen::Index> row_source_;  // a_rows_'s values: their index among a_'s
  detail::gram_terms terms_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
      ldlt_;
  // What the structure was made for: a sparse A's pattern, or a dense A's pattern list (with
  // each of a_'s values' index in the dense A); at most one of the two is set.
  sparse_pattern analysed_;
  std::vector<std::pair<int, int>> analysed_list_;
  Eigen::Index analysed_rows_ = -1, analysed_cols_ = -1;
  std::vector<Eigen::Index> list_index_, dense_source_;
};

// A's entries at `pattern` (row, column) of a dense A: the sparse form the solvers get
// (constrained_system::jacobian_pattern).
Eigen::SparseMatrix<double> sparse_from_pattern(const Eigen::MatrixXd& a,
                                                std::span<const std::pair<int, int>> pattern);

}  // namespace kinevo::mechanics
