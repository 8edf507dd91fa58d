// The structure of a sparse Gram product G = L A^T (L = A M^-1 for sparse_gram, L = A for
// sparse_pseudo_inverse), worked out once per pattern: each entry of G's lower triangle as a list
// of products in the order in which Eigen's sparse product sums them, so that forming G at a
// state is a loop over flat arrays with no allocation, and the numbers are the product's to the
// bit. Eigen's conservative sparse product (ConservativeSparseSparseProduct.h) gives G(i, j) the
// sum over k ascending in row j of A of L(i, k) A(j, k), the first product assigned, the others
// added in turn.
#pragma once

#include <Eigen/SparseCore>
#include <span>
#include <utility>
#include <vector>

namespace kinevo::mechanics {

// lists[r]: (index, entry) pairs of row (or column) r, index ascending.
using sparse_lists = std::vector<std::vector<std::pair<int, int>>>;

// A (m x n) with the structure of `pattern` (row, column), duplicates not allowed; pattern_index[p]
// is the index in `pattern` of a's value p and source[p] its index in the dense A (column-major).
void sparse_structure(Eigen::Index m, Eigen::Index n, std::span<const std::pair<int, int>> pattern,
                      Eigen::SparseMatrix<double>& a, std::vector<Eigen::Index>& pattern_index,
                      std::vector<Eigen::Index>& source);

// rows[i]: (column k, index of A(i, k) among a's values), k ascending (a compressed).
sparse_lists sparse_rows_of(const Eigen::SparseMatrix<double>& a);
// columns[k]: (row i, index of A(i, k) among a's values), i ascending (a compressed).
sparse_lists sparse_columns_of(const Eigen::SparseMatrix<double>& a);

// The terms of G's lower triangle, entries in column-major order: entry e is the sum over
// [first[e], first[e + 1]) of left[l[t]] right[r[t]]; diagonal[i] the entry of G_ii (-1: a zero
// row of A).
struct gram_terms {
  std::vector<int> first, l, r, diagonal;

  // G's lower values from L's values (left) and A's (right), in the terms' order.
  void form(const double* left, const double* right, double* out) const;
};

// G's lower triangle, column j: G(i, j) = sum over k of L(i, k) A(j, k), k ascending over row j
// of A. `rows` are A's rows (sparse_rows_of); `left_columns[k]` lists column k of L as (row i,
// index of L(i, k) among L's values). The terms into g, the structure (values 0, compressed, its
// values in the terms' order) into `lower`.
void gram_structure(const sparse_lists& rows, const sparse_lists& left_columns, gram_terms& g,
                    Eigen::SparseMatrix<double>& lower);

// The row-relative redundancy test of a Gram matrix's LDL^T in the natural order: every
// D_i / G_ii above tolerance^2 (D_i / G_ii is the squared remainder of row i after Gram-Schmidt
// against the rows before it, relative to its norm). G_ii from `gram_values` at `diagonal`.
bool rows_clear_of_dependence(const Eigen::VectorXd& d, const double* gram_values,
                              const std::vector<int>& diagonal, double tolerance);

}  // namespace kinevo::mechanics
