// The Moore-Penrose inverse of a sparse A of full row rank, A^+ = A^T (A A^T)^-1, applied through
// the sparse LDL^T of G = A A^T in the natural row order. In that order D_i / G_ii is the squared
// remainder of row i after Gram-Schmidt against the rows before it, relative to its norm (the
// row-relative redundancy test of the solvers' sparse Gram path, in the Euclidean metric);
// factor() refuses a row whose remainder is below the given tolerance, so that a rank-deficient
// or nearly rank-deficient A is left to the dense rank-revealing factorisations.
// G is formed by sparse_row_gram (its structure made once per pattern of A) and the factor's
// symbolic analysis is redone only when G's pattern changes.
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <span>
#include <utility>
#include <vector>

#include "kinevo/mechanics/solvers/sparse_pattern.hpp"
#include "kinevo/mechanics/solvers/sparse_row_gram.hpp"

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
  const Eigen::SparseMatrix<double>& matrix() const { return gram_.matrix(); }
  // A and A A^T as formed by the last factor().
  const sparse_row_gram& row_gram() const { return gram_; }
  // A in row-major storage (made by factor()).
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& matrix_by_rows() const {
    return gram_.matrix_by_rows();
  }

 private:
  // Factors gram_'s G (its analysis redone when G's pattern changes); the rows' test.
  bool factor_formed(double tolerance);
  // upper_'s structure from G's lower triangle, and to_upper_[p] the position in upper_ of
  // lower()'s value p.
  void transpose_pattern(const Eigen::SparseMatrix<double>& g);

  sparse_row_gram gram_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Upper, Eigen::NaturalOrdering<int>>
      ldlt_;
  sparse_pattern analysed_;            // the pattern ldlt_ was analysed for
  Eigen::SparseMatrix<double> upper_;  // G's upper triangle, the matrix ldlt_ factors
  std::vector<int> to_upper_;
};

}  // namespace kinevo::mechanics
