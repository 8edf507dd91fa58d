// The QTZ decomposition (qtz_decomposition.hpp) of a large sparse Phi_q of full row rank through a
// sparse Householder QR of Phi_q^T with the COLAMD column order E instead of norm pivoting:
// SuiteSparseQR's multifrontal QR (T. A. Davis, "Algorithm 915, SuiteSparseQR: Multifrontal
// Multithreaded Rank-Revealing Sparse QR Factorization", ACM TOMS 38(1), 2011),
// P_H Phi_q^T E = (H_1 ... H_s) R, i.e. Phi_q^T E = Q R with Q = P_H^T H_1 ... H_s and P_H its row
// order, or Eigen's SparseQR (Phi_q^T E = Q R, no row order). With rank r = m there
// is no Z step (Z = I), T is the top m x m block of R, C = E^T and Q1^ = Q1 T^-T, so
// Psi''_q = C Phi_q = T^T Q1^T still holds (Del Citto, Pennestri and Vita, eqs. 15-35); Q1 and Q2
// span the same spaces as on the dense path (in other orthonormal bases), and Q1^ C = Phi_q^+ is
// the same matrix.
// Which sparse QR: Eigen's SparseQR below spqr_min_rows rows (its analysis of the pattern kept
// from one decomposition to the next), SuiteSparseQR from there on (issue 30's QTZ fourth pass).
// Eigen's left-looking SparseQR takes row k as the pivot row of column k and does not permute
// rows, so on a chain its Householder vectors fill to k + 2 entries (1,325 nonzeros for the
// 50-link chain's 100 x 50 Phi_q^T) and forming Q2 cost 940,000 instructions there; the
// multifrontal QR's vectors stay short and its factorisation costs less than Eigen's (which
// clears a dense column of size n for each of the m columns). Below the threshold SuiteSparseQR's
// fixed costs (its analysis at every call, CHOLMOD's workspaces) make it the dearer one: the
// 10-link chain's qtz-orthogonal step took 905,000 instructions with it, 470,000 with Eigen's;
// 1,958,000 and 1,541,000 at 20 links, 3,444,000 and 3,672,000 at 30 (SuiteSparseQR's figures
// with the lower-triangle M^ of qtz_reduced_mass, which saves about 4 % there), 8,304,000 and
// 11,490,000 at 50 (both with it): the crossing is near 30 rows.
// nullopt (the dense column-pivoted path then decides) for a small or dense Phi_q, or when a
// diagonal entry of R is not clear of the rank tolerance by a margin (a rank-deficient or nearly
// rank-deficient Phi_q, where the rank decision needs the norm pivoting).
#pragma once

#include <Eigen/Core>
#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseQR>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

// From this many rows of Phi_q the sparse QTZ decomposition is SuiteSparseQR's (above); every
// example has fewer (their answers are those of Eigen's SparseQR, as before).
constexpr Eigen::Index spqr_min_rows = 32;

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
  // Q2 with every reflection applied to every column, the zero products included: what q2()
  // gives to the bit by skipping the reflections its columns cannot reach (for the tests).
  Eigen::MatrixXd q2_every_reflection() const;
  // C = P^T (m x m).
  Eigen::MatrixXd combination() const;
  // Q1^ x = Q1 T^-T x (eq. 31), x of size m.
  Eigen::VectorXd q1_hat_times(const Eigen::VectorXd& x) const;
  // Whether the last compute() was SuiteSparseQR's.
  bool multifrontal() const { return multifrontal_; }

 private:
  bool compute_eigen(const Eigen::MatrixXd& jacobian);
  bool compute_multifrontal(const Eigen::MatrixXd& jacobian);
  // SuiteSparseQR's Q x for the columns of x (n rows), in place: H_1 ... H_s, then the rows by
  // P_H^T.
  void apply_q(Eigen::MatrixXd& x) const;
  // Q times [I; 0] (first) or [0; I] (not first), n x m or n x (n - m).
  Eigen::MatrixXd q_columns(bool first) const;
  // For each unit column r of R's rows [offset, offset + columns): the reflections k (in the
  // order applied) whose pattern meets the rows H_s ... H_{k+1} e_r can be nonzero in. Made
  // from H's pattern, kept while it stays.
  void reach_units(Eigen::Index offset, Eigen::Index columns) const;
  bool same_pattern() const;
  bool multifrontal_ = false;
  Eigen::Index n_ = 0, m_ = 0;
  Eigen::MatrixXd t_;
  // Eigen's SparseQR, and the pattern it was analysed for (empty: none yet).
  Eigen::SparseMatrix<double> transposed_;
  Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr_;
  Eigen::VectorXi outer_, inner_;
  // SuiteSparseQR's factors; order_ = E: column j of Phi_q^T E is column order_[j] of Phi_q^T.
  std::unique_ptr<spqr_factors> f_;
  std::vector<int> order_;
  // reach_units: the pattern it was made for (H's columns and rows, P_H, the unit columns) and,
  // per unit column, its reflections in reach_[reach_start_[j], reach_start_[j + 1]).
  mutable std::vector<std::int64_t> reach_key_;
  mutable std::vector<int> reach_start_, reach_;
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
