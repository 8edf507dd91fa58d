// The scaling the GA's default search may use: M's own diagonal blocks (one per spatial body,
// 1 x 1 for particles and planar diagonal masses), each factored M_b = L_b L_b^T. The search
// coordinates are x = B^T (a - c) with B = blockdiag(L_b^-T), in which the Gauss function
// 1/2 |a - a_f|_M^2 (generalized-inverse dissertation (GIGSP), eq. 5.3) is a unit sphere; the
// constraint rows are not touched (no factorisation of anything containing A). Everything here
// costs O(nnz(M) + nnz(A)) for block-diagonal M.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::gauss {

struct mass_scaling {
  std::vector<std::pair<int, int>> blocks;  // (first coordinate, size), covering 0..n-1
  Eigen::SparseMatrix<double> basis;        // B = blockdiag(L_b^-T), so B^T M B = I
  Eigen::VectorXd axis_width;               // |B e_j|: m/s^2 per unit of x_j

  // From the system's blocks (mass_blocks, the diagonal flag, or the block-diagonal pattern
  // of M found by scanning it). Throws std::invalid_argument when a block is not positive
  // definite.
  static mass_scaling of(const mechanics::constrained_system& s);

  // M^-1 v = B B^T v.
  Eigen::VectorXd inverse_times(const Eigen::VectorXd& v) const;
};

// 1 / (A_i M^-1 A_i^T) per row (1 for a zero row): the scales of row-relative weights,
// from |B^T A_i^T|^2, O(nnz(A) times the block size).
Eigen::VectorXd row_scales(const Eigen::SparseMatrix<double>& jacobian, const mass_scaling& ms);

}  // namespace kinevo::gauss
