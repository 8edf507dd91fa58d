// [Phi_q; B] x = rhs by block elimination on a sparse block of Phi_q, for a dense B (qtz-state's
// B = Q2^T M; Del Citto, Pennestri and Vita, eq. 55): with the coordinates split into m dependent
// ones D, where the m x m block Phi_D of the sparse Phi_q is regular, and k independent ones I,
//   [Phi_D Phi_I; B_D B_I] [x_D; x_I] = [r1; r2],
//   S = B_I - Y Phi_I,  Y = B_D Phi_D^-1        (the Schur complement of Phi_D, k x k)
//   S x_I = r2 - Y r1,  x_D = Phi_D^-1 (r1 - Phi_I x_I).
// Y by KLU's transposed solve (Y^T = Phi_D^-T B_D^T), so that the product with the sparse Phi_I
// costs k nnz(Phi_I): B_D (Phi_D^-1 Phi_I), the dense k x m times m x k product it replaced, was
// a sixth of qtz-state's step on the 50-link chain.
// Phi_D by SuiteSparse's KLU (analysed once per pattern of the block), S by Eigen's LU with
// partial pivoting: for the 50-link chain (n = 100, m = k = 50) about a quarter of the dense LU
// of the whole 100 x 100 matrix, which was half of qtz-state's time. D is chosen by Eigen's
// column-pivoted QR of the dense Phi_q (its first m pivot columns), once, and again after a solve
// whose residual was beyond round-off (the caller then falls back to the dense LU of the whole).
#pragma once

#include <Eigen/Core>
#include <Eigen/KLUSupport>
#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/klu_factor.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"

namespace kinevo::mechanics {

class stacked_schur {
 public:
  // Whether the block elimination suits [jacobian; basis]: square, a large sparse jacobian
  // (at least min_rows rows, at most a quarter filled); smaller models keep the dense LU.
  static bool suits(const Eigen::SparseMatrix<double>& jacobian, const Eigen::MatrixXd& basis);
  // Factors [jacobian; basis]; false when Phi_D or S is singular (the caller takes the dense
  // path, and D is chosen again at the next factor).
  bool factor(const Eigen::SparseMatrix<double>& jacobian, const Eigen::MatrixXd& basis);
  Eigen::VectorXd solve(const Eigen::VectorXd& rhs) const;
  // D is chosen again at the next factor (after a solve the caller did not trust).
  void choose_again() { dependent_.clear(); }

  static constexpr Eigen::Index min_rows = 32;

 private:
  void choose_dependent(const Eigen::SparseMatrix<double>& jacobian);
  bool factor_block(const Eigen::SparseMatrix<double>& jacobian);

  std::vector<int> dependent_, independent_;
  std::vector<int> position_;  // of each coordinate in D (>= 0) or in I (-1 - index)
  Eigen::SparseMatrix<double> block_, phi_i_;  // Phi_D, Phi_I
  sparse_pattern pattern_;                     // the pattern block_lu_ was analysed for
  detail::klu_factor block_lu_;
  Eigen::MatrixXd y_t_, y_;  // Y^T = Phi_D^-T B_D^T (m x k, the solve's workspace) and Y
  Eigen::PartialPivLU<Eigen::MatrixXd> schur_lu_;
};

}  // namespace kinevo::mechanics
