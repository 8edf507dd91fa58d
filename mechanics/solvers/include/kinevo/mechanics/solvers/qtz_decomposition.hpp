// The QTZ decomposition of a constraint Jacobian (Del Citto, Pennestri and Vita, "Coordinates
// reduction and numerical integration of models of constrained multibody systems", eqs. 15-35):
//   Phi_q^T P = Q R (QR with column pivoting),  R1 = [T 0] Z (the r x m upper part of R),
// i.e. Phi_q^T P = Q [T 0; 0 0] Z: Eigen's CompleteOrthogonalDecomposition of Phi_q^T. Its rank
// r comes from the diagonal of R. Q1 (n x r) spans the range of Phi_q^T and Q2 (n x (n - r)) the
// null space of Phi_q. The r combined constraints Psi'' = C Phi with C the first r rows of
// Z P^T have the full-row-rank Jacobian Psi''_q = C Phi_q = T^T Q1^T (eqs. 41-46); the other
// m - r combinations are identically zero (redundant rows drop out).
#pragma once

#include <Eigen/Core>
#include <memory>

namespace kinevo::mechanics {

class sparse_qtz_factor;

struct qtz_decomposition {
  int rank = 0;                 // r
  Eigen::MatrixXd q1;           // n x r, orthonormal: range of Phi_q^T
  Eigen::MatrixXd q2;           // n x (n - r), orthonormal: null space of Phi_q
  Eigen::MatrixXd t;            // r x r upper triangular T
  Eigen::MatrixXd combination;  // C, r x m: Psi'' = C Phi, gamma'' = C gamma (eq. 62)
  // Q1^ = Q1 (Psi''_q Q1)^-1 = Q1 T^-T (eq. 31), n x r, with Psi''_q Q1^ = I (eq. 34). Since
  // Psi''_q Q2 = 0, Q2^ = Q2 (eqs. 32, 35).
  Eigen::MatrixXd q1_hat;
  // Set by the sparse path of the workspace overload only: q1 and q1_hat are then left empty
  // and applied through the Householder vectors of this factorisation
  // (sparse_qtz_decomposition.hpp).
  std::shared_ptr<const sparse_qtz_factor> sparse;
  // Q1^ x (x of size r) on either path.
  Eigen::VectorXd q1_hat_times(const Eigen::VectorXd& x) const;
};

// What repeated decompositions of one solver or formulation share: the sparse path's factor
// (sparse_qtz_decomposition.hpp) with, on Eigen's SparseQR, its analysis of the pattern of
// Phi_q (the fill-reducing order) kept while the pattern stays the same, and SuiteSparseQR's
// workspace.
struct qtz_workspace {
  std::shared_ptr<sparse_qtz_factor> sparse;
};

// `jacobian`: Phi_q (m x n; m = 0 gives r = 0, Q2 = I). A diagonal entry of R below
// rank_tolerance times the largest one counts as zero.
qtz_decomposition decompose_qtz(const Eigen::MatrixXd& jacobian, double rank_tolerance);
// The same decomposition, but on the sparse path q1 and q1_hat are not formed (use
// q1_hat_times), nor q2 when with_q2 is false (a Newton correction applies Q1^ only; forming the
// dense Q2 from the Householder vectors is the sparse path's largest cost), and the pattern's
// analysis is reused from `workspace`.
qtz_decomposition decompose_qtz(const Eigen::MatrixXd& jacobian, double rank_tolerance,
                                qtz_workspace& workspace, bool with_q2 = true);

// M^ = Q2^T (M Q2) (eq. 66) with `m_q2` = M Q2, for an LLT, which reads the lower triangle only.
// From qtz_lower_mass_min_columns columns of Q2 only the lower triangle is formed, by the
// triangular product, which runs the same kernel per entry as Eigen's blocked GEMM (used for
// the full product at these sizes: the same bits) and saves 1.1 million instructions per RK4
// step of the 50-link chain's qtz-orthogonal; below it the full product of before (at 10
// columns the triangular product's set-up cost more than it saved: 474,000 against 470,000 per
// step of the 10-link chain).
constexpr Eigen::Index qtz_lower_mass_min_columns = 32;
Eigen::MatrixXd qtz_reduced_mass(const Eigen::MatrixXd& q2, const Eigen::MatrixXd& m_q2);

}  // namespace kinevo::mechanics
