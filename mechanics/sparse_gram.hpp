// The Gram matrix G = A M^-1 A^T of a sparse A with diagonal (or block-diagonal, small blocks)
// M, and its sparse LDL^T factor in
// the natural row order. For a pendulum chain G is tridiagonal, so forming and factoring it is
// O(N) where the dense orthogonalisation is O(N^3) (the flop counts of the
// generalized-inverse dissertation (GIGSP), Table 4.2, assume dense A).
// In the natural order, D_i / G_ii is exactly the squared remainder of row i of A L^-T after
// Gram-Schmidt against the rows before it, relative to its norm: the same row-relative
// redundancy test as the dense sweep.
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <vector>

#include "kinevo/mechanics/acceleration_solver.hpp"

namespace kinevo::mechanics {

class sparse_gram {
 public:
  // Worth it when A is large and sparse and M diagonal or block-diagonal (from the patterns).
  static bool applicable(const constrained_system& s);
  // Forms and factors G. False when some row is dependent on earlier ones (relative remainder
  // below rank_tolerance) or the factorisation fails: use the dense path then.
  bool factor(const constrained_system& s, double rank_tolerance);
  // y = G^-1 r
  Eigen::VectorXd solve(const Eigen::VectorXd& r) const { return ldlt_.solve(r); }
  // A^T y using the pattern.
  Eigen::VectorXd transpose_times(const constrained_system& s, const Eigen::VectorXd& y) const;
  Eigen::VectorXd times(const constrained_system& s, const Eigen::VectorXd& x) const;

 private:
  Eigen::SparseMatrix<double> block_inverse(const constrained_system& s);
  Eigen::SparseMatrix<double> a_, aw_, at_, g_;
  std::vector<Eigen::Triplet<double>> triplets_, inverse_triplets_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
      ldlt_;
  std::size_t analysed_pattern_size_ = 0;
  Eigen::Index analysed_rows_ = -1;
};

}  // namespace kinevo::mechanics
