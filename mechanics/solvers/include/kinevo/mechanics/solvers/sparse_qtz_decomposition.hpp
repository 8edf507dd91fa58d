// The QTZ decomposition (qtz_decomposition.hpp) of a large sparse Phi_q of full row rank through
// Eigen's SparseQR of Phi_q^T: Phi_q^T P = Q R with P the fill-reducing COLAMD column order
// instead of norm pivoting. With rank r = m there is no Z step (Z = I), T is the top m x m block
// of R, C = P^T and Q1^ = Q1 T^-T, so Psi''_q = C Phi_q = T^T Q1^T still holds (Del Citto,
// Pennestri and Vita, eqs. 15-35); Q1 and Q2 span the same spaces as on the dense path (in
// other orthonormal bases), and Q1^ C = Phi_q^+ is the same matrix. Q is formed from the sparse
// Householder vectors at O(nnz) per column instead of the dense O(n m) per column.
// nullopt (the dense column-pivoted path then decides) for a small or dense Phi_q, or when a
// diagonal entry of R is not clear of the rank tolerance by a margin (a rank-deficient or nearly
// rank-deficient Phi_q, where the rank decision needs the norm pivoting).
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseQR>
#include <memory>
#include <optional>

#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

// The SparseQR of Phi_q^T behind a decomposition of the workspace path (decompose_qtz with a
// qtz_workspace): Q1 and Q1^ are not formed (n x m dense each, and Q1^ an m x m triangular
// solve per column, were a third of qtz-orthogonal's time on the 50-link chain); Q1^ x is
// Q [T^-T x; 0], one pass over the Householder vectors. Only Q2 = Q [0; I] is formed, which
// Q2^T M Q2 needs. The COLAMD ordering and elimination tree are analysed once per pattern of
// Phi_q^T (the same from step to step unless an entry turns exactly zero).
class sparse_qtz_factor {
 public:
  // false when the sparse path does not apply (see above); the factor is then unusable.
  bool compute(const Eigen::MatrixXd& jacobian, double rank_tolerance);
  const Eigen::MatrixXd& t() const { return t_; }
  Eigen::MatrixXd q1() const;
  Eigen::MatrixXd q2() const;
  // C = P^T (m x m).
  Eigen::MatrixXd combination() const;
  // Q1^ x = Q1 T^-T x (eq. 31), x of size m.
  Eigen::VectorXd q1_hat_times(const Eigen::VectorXd& x) const;

 private:
  bool same_pattern() const;
  Eigen::SparseMatrix<double> transposed_;
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr_;
  // The pattern qr_ was analysed for (empty: none yet).
  Eigen::VectorXi outer_, inner_;
  Eigen::MatrixXd t_;
};

// The whole decomposition (Q1, Q2 and Q1^ formed), or nullopt.
std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance);

// The workspace path: Q2, T and C formed, Q1 and Q1^ left empty and applied through `factor`
// (kept in the result). `factor` is reused when no earlier result still holds it.
std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance,
                                                      std::shared_ptr<sparse_qtz_factor>& factor,
                                                      bool with_q2 = true);

}  // namespace kinevo::mechanics
