// The projection formulation's smallest position correction (Yoo, Kim and Kim, eq. 20) through
// sparse factorisations, for a regular configuration. Eq. 20 solves [Phi_q(q_i); P_T0^T] dq =
// [-Phi(q_i); 0] with P_T0 spanning the null space of Phi_q at the predicted positions q_0: when
// Phi_q(q_0) has full row rank, P_T0^T dq = 0 says dq lies in the range of Phi_q(q_0)^T, so
//   dq = Phi_q(q_0)^T y,   (Phi_q(q_i) Phi_q(q_0)^T) y = -Phi(q_i)
// is the same step from one m x m sparse LU (m rows instead of the dense n x n P_N and the
// complete orthogonal decomposition of an (m + k) x n matrix per iteration). At the first
// iteration q_i = q_0 and the matrix is Phi_q(q_0) Phi_q(q_0)^T, whose LDL^T the rank test
// below has just made: that iteration is dq = Phi_q(q_0)^+ (-Phi), without a product or an LU.
// Later iterations (the matrix is not symmetric) form it on its fixed pattern and factor it by
// KLU, reusing the previous step's pivot order (klu_factor::refactorize).
// Full row rank is tested by sparse_pseudo_inverse (the sparse LDL^T of Phi_q Phi_q^T), with a
// margin over the rank tolerance: near a singular configuration, or when the iteration
// does not converge, the caller's dense path decides, so singular and failing cases behave as
// they did.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <optional>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/klu_factor.hpp"
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
  // h_ = Phi_q(q_i) Phi_q(q_0)^T on the pattern made by analyse_product.
  void multiply(const Eigen::SparseMatrix<double>& jacobian);
  void analyse_product(const Eigen::SparseMatrix<double>& jacobian_0);

  // The full-row-rank test, Phi_q(q_0) (matrix()) and the first iteration's solve.
  sparse_pseudo_inverse pseudo_inverse_;
  // Phi_q(q_i) Phi_q(q_0)^T of a later iteration (lu_ refers to it), its pattern that of
  // Phi_q Phi_q^T: entry product_at_[p] of h_ gets the p-th product of two entries in a column
  // of Phi_q (both have the pattern analysed_).
  Eigen::SparseMatrix<double> h_;
  std::vector<int> product_at_;
  detail::klu_factor lu_;
  sparse_pattern analysed_;  // Phi_q's pattern, which h_'s pattern and lu_'s analysis are for
};

}  // namespace kinevo::mechanics
