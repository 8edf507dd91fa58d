// The Gram matrix G = A M^-1 A^T of a sparse A with diagonal (or block-diagonal, small blocks)
// M, and its sparse LDL^T factor in
// the natural row order. For a pendulum chain G is tridiagonal, so forming and factoring it is
// O(N) where the dense orthogonalisation is O(N^3) (the flop counts of the
// generalized-inverse dissertation (GIGSP), Table 4.2, assume dense A).
// In the natural order, D_i / G_ii is exactly the squared remainder of row i of A L^-T after
// Gram-Schmidt against the rows before it, relative to its norm: the same row-relative
// redundancy test as the dense sweep.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/gram_structure.hpp"
#include "kinevo/mechanics/solvers/small_cholesky.hpp"

namespace kinevo::mechanics {

class sparse_gram {
 public:
  // Worth it when A is large and sparse and M diagonal or block-diagonal (from the patterns).
  static bool applicable(const constrained_system& s);
  // Forms and factors G. False when some row is dependent on earlier ones (relative remainder
  // below rank_tolerance) or the factorisation fails: use the dense path then.
  bool factor(const constrained_system& s, double rank_tolerance);
  // G's lower triangle at s, formed without factoring (the structure made once per pattern), and
  // the index of each G_ii among its values (-1: a zero row of A).
  const Eigen::SparseMatrix<double>& gram(const constrained_system& s);
  const std::vector<int>& gram_diagonal() const { return g_terms_.diagonal; }
  // y = G^-1 r
  Eigen::VectorXd solve(const Eigen::VectorXd& r) const { return ldlt_.solve(r); }
  // A^T y using the pattern.
  Eigen::VectorXd transpose_times(const constrained_system& s, const Eigen::VectorXd& y) const;
  Eigen::VectorXd times(const constrained_system& s, const Eigen::VectorXd& x) const;
  // The same into the caller's storage (a solver's, kept between solves: no allocation).
  void solve_into(const Eigen::VectorXd& r, Eigen::VectorXd& y) const { y = ldlt_.solve(r); }
  void transpose_times_into(const Eigen::VectorXd& y, Eigen::VectorXd& out) const;
  void times_into(const Eigen::VectorXd& x, Eigen::VectorXd& out) const;

 private:
  // The structure of A, A M^-1 and G, worked out once per pattern (a simulation keeps it for
  // every step): each entry of A M^-1 and of G's lower triangle as a list of products in the
  // order in which Eigen's sparse products sum them, so that forming G at a state is a few
  // loops over flat arrays with no allocation, and the numbers are those of the products.
  void analyse(const constrained_system& s);
  bool analysed_for(const constrained_system& s) const;
  void form(const constrained_system& s);

  Eigen::SparseMatrix<double> a_, g_;    // g_: lower triangle of G, fixed structure
  std::vector<Eigen::Index> a_source_;   // a_'s values: their index in the dense A
  std::vector<Eigen::Index> a_pattern_;  // and in jacobian_pattern (a compact A's values)
  Eigen::MatrixXd compact_block_;        // one block of a compact M
  // M^-1: the diagonal's inverse, or each block's inverse (column-major) one after another.
  std::vector<double> w_;
  std::vector<int> w_block_start_;                      // offset of each block's inverse in w_
  std::vector<Eigen::LLT<Eigen::MatrixXd>> block_llt_;  // blocks of more than 4 rows
  std::vector<small_cholesky> block_small_;             // the others
  Eigen::MatrixXd block_inverse_;
  // A M^-1 entries: terms [aw_first_[e], aw_first_[e + 1]) of (a_ value, w_ index) pairs.
  std::vector<double> aw_;
  std::vector<int> aw_first_, aw_a_, aw_w_;
  // G's lower entries (in g_'s storage order): terms of (aw_ index, a_ value index) pairs.
  gram_terms g_terms_;
  // What the analysis was made for.
  std::vector<std::pair<int, int>> analysed_pattern_, analysed_blocks_;
  Eigen::Index analysed_rows_ = -1, analysed_cols_ = -1;
  bool analysed_diagonal_ = false;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
      ldlt_;
};

}  // namespace kinevo::mechanics
