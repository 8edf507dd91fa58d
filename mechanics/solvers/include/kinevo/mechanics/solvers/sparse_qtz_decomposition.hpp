// The QTZ decomposition (qtz_decomposition.hpp) of a large sparse Phi_q of full row rank through
// SuiteSparseQR's multifrontal QR of Phi_q^T (T. A. Davis, "Algorithm 915, SuiteSparseQR:
// Multifrontal Multithreaded Rank-Revealing Sparse QR Factorization", ACM TOMS 38(1), 2011):
// P_H Phi_q^T E = (H_1 ... H_s) R, i.e. Phi_q^T E = Q R with Q = P_H^T H_1 ... H_s, E the COLAMD
// column order instead of norm pivoting and P_H SuiteSparseQR's row order. With rank r = m there
// is no Z step (Z = I), T is the top m x m block of R, C = E^T and Q1^ = Q1 T^-T, so
// Psi''_q = C Phi_q = T^T Q1^T still holds (Del Citto, Pennestri and Vita, eqs. 15-35); Q1 and Q2
// span the same spaces as on the dense path (in other orthonormal bases), and Q1^ C = Phi_q^+ is
// the same matrix.
// Why SuiteSparseQR and not Eigen's SparseQR (until issue 30's QTZ fourth pass): Eigen's
// left-looking SparseQR takes row k as the pivot row of column k and does not permute rows, so on
// a chain its Householder vectors fill to k + 2 entries (1,325 nonzeros for the 50-link chain's
// 100 x 50 Phi_q^T) and forming Q2 cost 940,000 instructions; the multifrontal QR's vectors keep
// 3-4 entries each, and its factorisation costs a third of Eigen's (which clears a dense column of
// size n for each of the m columns).
// nullopt (the dense column-pivoted path then decides) for a small or dense Phi_q, or when a
// diagonal entry of R is not clear of the rank tolerance by a margin (a rank-deficient or nearly
// rank-deficient Phi_q, where the rank decision needs the norm pivoting).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <vector>

#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

// SuiteSparseQR's results (R, E, the Householder vectors H with their coefficients and row
// order) and its workspace, kept out of this header (cholmod.h's macros).
struct spqr_factors;

// The QR of Phi_q^T behind a decomposition of the workspace path (decompose_qtz with a
// qtz_workspace): Q1 and Q1^ are not formed; Q1^ x is Q [T^-T x; 0], one pass over the
// Householder vectors. Only Q2 = Q [0; I] is formed, which Q2^T M Q2 needs.
class sparse_qtz_factor {
 public:
  sparse_qtz_factor();
  ~sparse_qtz_factor();
  sparse_qtz_factor(const sparse_qtz_factor&) = delete;
  sparse_qtz_factor& operator=(const sparse_qtz_factor&) = delete;

  // false when the sparse path does not apply (see above); the factor is then unusable.
  bool compute(const Eigen::MatrixXd& jacobian, double rank_tolerance);
  const Eigen::MatrixXd& t() const { return t_; }
  Eigen::MatrixXd q1() const;
  Eigen::MatrixXd q2() const;
  // C = E^T (m x m).
  Eigen::MatrixXd combination() const;
  // Q1^ x = Q1 T^-T x (eq. 31), x of size m.
  Eigen::VectorXd q1_hat_times(const Eigen::VectorXd& x) const;

 private:
  // Q x for the columns of x (n rows), in place: H_1 ... H_s, then the rows by P_H^T.
  void apply_q(Eigen::MatrixXd& x) const;
  std::unique_ptr<spqr_factors> f_;
  Eigen::Index n_ = 0, m_ = 0;
  std::vector<int> order_;  // E: column j of Phi_q^T E is column order_[j] of Phi_q^T
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
