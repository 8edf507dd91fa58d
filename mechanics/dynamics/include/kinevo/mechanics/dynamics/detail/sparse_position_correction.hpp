// The projection formulation's smallest position correction (Yoo, Kim and Kim, eq. 20) through
// sparse factorisations, for a regular configuration. Eq. 20 solves [Phi_q(q_i); P_T0^T] dq =
// [-Phi(q_i); 0] with P_T0 spanning the null space of Phi_q at the predicted positions q_0: when
// Phi_q(q_0) has full row rank, P_T0^T dq = 0 says dq lies in the range of Phi_q(q_0)^T, so
//   dq = Phi_q(q_0)^T y,   (Phi_q(q_i) Phi_q(q_0)^T) y = -Phi(q_i)
// is the same step from one m x m sparse LU (m rows instead of the dense n x n P_N and the
// complete orthogonal decomposition of an (m + k) x n matrix per iteration).
// Full row rank is tested by sparse_pseudo_inverse (the sparse LDL^T of Phi_q Phi_q^T), with a
// margin over the rank tolerance: near a singular configuration, or when the iteration
// does not converge, the caller's dense path decides, so singular and failing cases behave as
// they did.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <optional>

#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/sparse_pattern.hpp"
#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

namespace kinevo::mechanics {

class sparse_position_correction {
 public:
  // Corrects q in place and returns whether it moved; nullopt (q unchanged) when the
  // configuration is not clearly regular, a factorisation fails or the iteration does not reach
  // newton_tolerance: the dense path is then taken.
  std::optional<bool> correct(const model& m, Eigen::VectorXd& q, double t,
                              const formulation_options& options);

 private:
  sparse_pseudo_inverse pseudo_inverse_;  // only its full-row-rank test is used here
  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu_;
  sparse_pattern analysed_;  // the pattern lu_ was last analysed for
};

}  // namespace kinevo::mechanics
