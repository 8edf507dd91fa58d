// Lagrange multipliers, range-space form of the augmented system (generalized-inverse
// dissertation (GIGSP), eqs. 2.6-2.9): a = a_f + M^-1 A^T (A M^-1 A^T)^-1 (b - A a_f). Needs full
// row rank: reports a singular system otherwise.
#pragma once

#include <Eigen/Cholesky>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/detail/small_gram_ldlt.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"

namespace kinevo::mechanics {

class lagrange_multiplier_solver final : public acceleration_solver {
 public:
  explicit lagrange_multiplier_solver(const direct_solver_options& options = {})
      : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  void solve_into(const constrained_system& system, acceleration_result& out) override;

 private:
  bool solve_small(const constrained_system& s, const mass_factor& mf, const Eigen::VectorXd& a_f,
                   const Eigen::VectorXd& residual, acceleration_result& r);

  direct_solver_options options_;
  sparse_gram sparse_;
  small_gram_ldlt small_;  // small systems' Gram matrix and factor
  // Kept between solves so that the factors' storage is reused (same sizes at every state).
  mass_factor mf_;
  Eigen::VectorXd a_f_, residual_, lambda_, y_, work_, inverse_sqrt_;
  Eigen::MatrixXd a_hat_, a_hat_t_, gram_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
};

}  // namespace kinevo::mechanics
