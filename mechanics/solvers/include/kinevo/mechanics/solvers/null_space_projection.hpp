// The projection method of Yoo, Kim and Kim, "A hybrid scheme using LU decomposition and
// projection matrix for dynamic analysis of constrained multibody systems", eqs. 10-19, as an
// acceleration solver ("projection"):
//   I_R = A^+                      (eq. 10; the Moore-Penrose inverse through a rank-revealing
//                                   complete orthogonal decomposition of A, never the explicit
//                                   inverse of A A^T, which is singular at singular configurations)
//   P_N = I - I_R A                (eq. 11, the projector onto the null space of A)
//   P_T = P_N B                    (eq. 12, B selects k = n - r independent columns of P_N)
//   M11 z'' = P_T^T (f - M I_R b)  (eqs. 16-19; the paper prints M I_R^T b)
//   q'' = I_R b + P_T z''          (eq. 14)
//   lambda = I_R^T (f - M q'')     (eq. 17, with the sign fixed: M q'' + A^T lambda = f)
// Redundant rows drop out (I_R of a rank-deficient A); a right-hand side outside the range of A
// (inconsistent rows) is refused and the rows are named, like GIGSP. A large sparse A of full row
// rank (clear of the rank tolerance) takes a sparse path to the same quantities: A^+ = A^T
// (A A^T)^-1 from a sparse LDL^T, P_T and M11 = B^T P_N (M P_T) through the sparse A and that
// factor without the n x n P_N (sparse_null_space_projector), and B chosen by
// the dense column-pivoted QR of P_N only when first needed or when M11 loses conditioning
// (a tenth of its reciprocal condition when B was chosen; estimated every 40th solve, or sooner
// when the ratio of M11's Cholesky pivots falls tenfold).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/sparse_null_space_projector.hpp"
#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

namespace kinevo::mechanics {

namespace detail {
class unblocked_llt;  // M11's factor (detail/unblocked_llt.hpp), used by the .cpp only
}

// P_N = I - A^+ A (eq. 11) for a Jacobian A (m x n; m = 0 gives I), the Moore-Penrose inverse
// from Eigen's CompleteOrthogonalDecomposition with threshold rank_tolerance (a pivot below
// rank_tolerance times the largest one counts as zero).
Eigen::MatrixXd null_space_projector(const Eigen::MatrixXd& jacobian, double rank_tolerance);

// The k = n - rank columns of P_N that column-pivoted QR chooses first (the B of eq. 12),
// ascending.
std::vector<int> independent_null_space_columns(const Eigen::MatrixXd& projector, int k);

class null_space_projection_solver final : public acceleration_solver {
 public:
  explicit null_space_projection_solver(const direct_solver_options& options = {})
      : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  // The multipliers of the last successful solve (size m): M q'' + A^T lambda = f.
  const Eigen::VectorXd& multipliers() const { return lambda_; }
  // How many times the sparse path has chosen the columns B of P_N (eq. 12): once, and again
  // whenever the conditioning check found M11 a tenth as well conditioned as when they were
  // chosen.
  int column_selections() const { return column_selections_; }

 private:
  std::optional<acceleration_result> solve_sparse(const constrained_system& s,
                                                  const Eigen::VectorXd& a_f);
  bool sparse_reduced_mass(const constrained_system& s, detail::unblocked_llt& llt);

  direct_solver_options options_;
  Eigen::VectorXd lambda_;
  // The sparse path (large sparse A of full row rank): A^+ through A A^T, and the columns of P_N
  // (B, eq. 12) kept from solve to solve while M11 stays as well conditioned.
  sparse_pseudo_inverse pseudo_inverse_;
  sparse_null_space_projector projector_;  // P_T and M11 from A^+ without forming P_N
  std::vector<int> columns_;
  // M11's factor storage, lent to each solve's factor: no k x k allocation per solve.
  Eigen::MatrixXd factor_storage_;
  double selected_rcond_ = 0.0;
  // The conditioning test on a schedule (null_space_projection.cpp, rcond_check_every).
  int solves_since_check_ = 0;
  int column_selections_ = 0;
  double checked_pivot_ratio_ = 0.0;
};

}  // namespace kinevo::mechanics
