// Singh-Likins (generalized-inverse dissertation (GIGSP), eqs. 4.1-4.2): SVD A = U S V^T, a =
// A^+ b + V_2 (V_2^T M V_2)^-1 (V_2^T f - V_2^T M A^+ b). An inconsistent set gives the
// least-squares compromise, reported as such.
#pragma once

#include <Eigen/Cholesky>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

class singh_likins_solver final : public acceleration_solver {
 public:
  explicit singh_likins_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  void solve_into(const constrained_system& system, acceleration_result& out) override;

 private:
  direct_solver_options options_;
  // Kept between solves so that their storage is reused (same sizes at every state).
  mass_factor mf_;
  Eigen::VectorXd a_f_, a_p_, work_;
  Eigen::MatrixXd v2_, mv2_, reduced_mass_, a_hat_, a_hat_t_;
  Eigen::LLT<Eigen::MatrixXd> reduced_llt_;
  gram_schmidt_workspace sweep_work_;
  gram_schmidt_rows sweep_;
};

}  // namespace kinevo::mechanics
