// The reciprocal condition number of a square block of columns of a sparse Phi_q, for coordinate
// partitioning's check after every accepted step (detail/coordinate_partitioning.hpp). The block
// Phi_u of a long chain is as sparse as Phi_q; the dense estimate (block_rcond) copied it into a
// dense matrix and factored that by partial pivoting, O(r^3) for r rows, at every step. Here
// SuiteSparse's KLU factors the block (its pattern analysed once per column set) and
// klu_condest returns ||Phi_u||_1 times Hager's estimate of ||Phi_u^-1||_1 as refined by Higham
// and Tisseur: the 1-norm estimate Eigen's rcond() makes (LAPACK's xLACON), from a sparse
// factorisation. Denser blocks, blocks that are not square (redundant rows) and failed or
// singular factorisations return nothing, and the caller takes the dense estimate.
#pragma once

#include <Eigen/KLUSupport>
#include <Eigen/SparseCore>
#include <optional>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/klu_factor.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"

namespace kinevo::mechanics {

class sparse_block_rcond {
 public:
  // 1 / (||B||_1 est ||B^-1||_1) for B = jacobian(:, columns), or nothing (see above).
  std::optional<double> operator()(const Eigen::SparseMatrix<double>& jacobian,
                                   const std::vector<int>& columns);

 private:
  void gather(const Eigen::SparseMatrix<double>& jacobian, const std::vector<int>& columns);

  Eigen::SparseMatrix<double> block_;
  sparse_pattern pattern_;  // the pattern lu_ was analysed for
  detail::klu_factor lu_;
};

}  // namespace kinevo::mechanics
