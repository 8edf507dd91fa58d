// The projection formulation's smallest position correction (Yoo, Kim and Kim, eq. 20) through
// sparse factorisations, for a regular configuration. Eq. 20 solves [Phi_q(q_i); P_T0^T] dq =
// [-Phi(q_i); 0] with P_T0 spanning the null space of Phi_q at the predicted positions q_0: when
// Phi_q(q_0) has full row rank, P_T0^T dq = 0 says dq lies in the range of Phi_q(q_0)^T, so
//   dq = Phi_q(q_0)^T y,   (Phi_q(q_i) Phi_q(q_0)^T) y = -Phi(q_i)
// is the same step from one m x m sparse LU (m rows instead of the dense n x n P_N and the
// complete orthogonal decomposition of an (m + k) x n matrix per iteration).
// Full row rank is tested on the sparse LDL^T of G = Phi_q Phi_q^T in the natural row order
// (D_i / G_ii is the squared remainder of row i after Gram-Schmidt against the rows before it),
// with a margin over the rank tolerance: near a singular configuration, or when the iteration
// does not converge, the caller's dense path decides, so singular and failing cases behave as
// they did.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <optional>

#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

class sparse_position_correction {
 public:
  // Corrects q in place and returns whether it moved; nullopt (q unchanged) when the
  // configuration is not clearly regular, a factorisation fails or the iteration does not reach
  // newton_tolerance: the dense path is then taken.
  std::optional<bool> correct(const model& m, Eigen::VectorXd& q, double t,
                              const formulation_options& options);

 private:
  bool regular(const Eigen::SparseMatrix<double>& jacobian, double rank_tolerance);

  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
      gram_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
};

}  // namespace kinevo::mechanics
