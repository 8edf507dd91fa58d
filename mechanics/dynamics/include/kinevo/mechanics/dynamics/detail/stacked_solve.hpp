// Solves [Phi_q; B] x = rhs for reduced_coordinates (Yoo, Kim and Kim, eqs. 8-9; Del Citto,
// Pennestri and Vita, eq. 55). Phi_q of a large mechanism is sparse and B of coordinate
// partitioning is a selection of unit rows, so the stacked matrix is factored by Eigen's SparseLU
// when it is square and sparse: O(nnz) work for a chain instead of the dense LU's O(n^3). A dense
// B (the QTZ state form's Q2^T M), redundant rows (more rows than columns) or a sparse
// factorisation that fails or leaves a residual beyond round-off take the dense path of before
// (LU with partial pivoting; column-pivoted QR for redundant rows), so a singular configuration
// behaves as it did.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <vector>

namespace kinevo::mechanics {

class stacked_solve {
 public:
  // Factors [jacobian; basis] (jacobian: the holonomic Phi_q, sparse).
  void factor(const Eigen::SparseMatrix<double>& jacobian, const Eigen::MatrixXd& basis);
  Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
  // Whether the last factor() took the sparse path (for tests and the docs' profile).
  bool sparse() const { return sparse_; }

 private:
  bool factor_sparse(const Eigen::SparseMatrix<double>& jacobian, const Eigen::MatrixXd& basis);

  bool same_pattern() const;  // stacked_sparse_ has the analysed pattern

  bool sparse_ = false;
  std::vector<int> outer_, inner_;  // the pattern lu_ was analysed for
  Eigen::SparseMatrix<double> stacked_sparse_;
  double largest_ = 0.0;  // max |entry| of stacked_sparse_, the residual test's scale
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  Eigen::MatrixXd stacked_dense_;
};

}  // namespace kinevo::mechanics
