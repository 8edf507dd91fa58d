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
#include <optional>

#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance);

}  // namespace kinevo::mechanics
