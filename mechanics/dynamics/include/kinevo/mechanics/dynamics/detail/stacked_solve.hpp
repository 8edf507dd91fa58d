// Solves [Phi_q; B] x = rhs for reduced_coordinates (Yoo, Kim and Kim, eqs. 8-9; Del Citto,
// Pennestri and Vita, eq. 55). Phi_q of a large mechanism is sparse and B of coordinate
// partitioning is a selection of unit rows, so the stacked matrix is factored by SuiteSparse's
// KLU (Eigen's KLUSupport) when it is square and sparse: O(nnz) work for a chain instead of the
// dense LU's O(n^3). KLU, not Eigen's SparseLU: at these sizes (150 x 150 for a 50-link chain)
// SparseLU's supernodal set-up was most of its 220,000 instructions per factorisation; KLU's
// takes about 33,000 with its row scaling (docs/formulations.md, "KLU for [Phi_q; B]"). A dense
// B (the QTZ state form's Q2^T M: block elimination on a sparse block of Phi_q for a large sparse
// Phi_q, stacked_schur.hpp), redundant rows (more rows than columns) or a sparse
// factorisation that fails or leaves a residual beyond round-off take the dense path of before
// (LU with partial pivoting; column-pivoted QR for redundant rows), so a singular configuration
// behaves as it did. The basis is set once per re-base (set_basis): its nonzeros per column
// are kept, and the stacked matrix is filled column by column from them and Phi_q's entries
// (the matrix setFromTriplets built before, entry for entry, without the triplets).
#pragma once

#include <Eigen/Core>
#include <Eigen/KLUSupport>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SparseCore>
#include <vector>

#include "kinevo/mechanics/solvers/sparse_pattern.hpp"

#include "kinevo/mechanics/dynamics/detail/stacked_schur.hpp"

namespace kinevo::mechanics {

class stacked_solve {
 public:
  // The basis B of the stacked matrix, until the next call.
  void set_basis(const Eigen::MatrixXd& basis);
  // Factors [jacobian; B] (jacobian: the holonomic Phi_q, sparse).
  void factor(const Eigen::SparseMatrix<double>& jacobian);
  Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
  // Whether the last factor() took the sparse path (for tests and the docs' profile).
  bool sparse() const { return sparse_; }
  // Whether it took the block elimination of a dense B (stacked_schur.hpp).
  bool schur() const { return schur_; }

 private:
  // The dense path's factorisation of the stacked matrix.
  struct dense_factor {
    bool square = true;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
    void compute(const Eigen::MatrixXd& stacked);
    Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
  };

  bool factor_sparse(const Eigen::SparseMatrix<double>& jacobian);
  // stacked_sparse_ = [jacobian; B] in compressed columns, rows ascending in each column.
  void assemble(const Eigen::SparseMatrix<double>& jacobian);

  Eigen::VectorXd solve_schur(const Eigen::VectorXd& rhs) const;

  // B, and its nonzeros column by column: entries [basis_start_[j], basis_start_[j + 1]) of
  // basis_rows_ / basis_values_ (rows of B, ascending) are those of column j.
  Eigen::MatrixXd basis_;
  std::vector<int> basis_start_, basis_rows_;
  std::vector<double> basis_values_;
  bool sparse_ = false;
  sparse_pattern pattern_;  // the pattern lu_ was analysed for
  Eigen::SparseMatrix<double> stacked_sparse_;
  double largest_ = 0.0;  // max |entry| of stacked_sparse_, the residual test's scale
  Eigen::KLU<Eigen::SparseMatrix<double>> lu_;
  Eigen::MatrixXd stacked_dense_;
  dense_factor dense_;
  bool schur_ = false;
  // Mutable: a solve whose residual is beyond round-off asks for another D (choose_again).
  mutable stacked_schur schur_solver_;
  Eigen::SparseMatrix<double> schur_jacobian_;  // Phi_q of the block elimination
};

}  // namespace kinevo::mechanics
