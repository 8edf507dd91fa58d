// Udwadia-Kalaba (generalized-inverse dissertation (GIGSP), eqs. 2.14/2.20): a = a_f + L^-T (A
// L^-T)^+ (b - A a_f), the Moore-Penrose inverse through a complete orthogonal decomposition.
// Correct for redundant rows; for an inconsistent set it returns the least-squares compromise and
// says so (status least_squares).
#pragma once

#include <Eigen/QR>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

class udwadia_kalaba_solver final : public acceleration_solver {
 public:
  explicit udwadia_kalaba_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  void solve_into(const constrained_system& system, acceleration_result& out) override;

 private:
  direct_solver_options options_;
  // Kept between solves so that their storage is reused (same sizes at every state).
  mass_factor mf_;
  Eigen::VectorXd a_f_, residual_, y_, work_;
  Eigen::MatrixXd a_hat_, a_hat_t_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  gram_schmidt_workspace sweep_work_;
  gram_schmidt_rows sweep_;
};

}  // namespace kinevo::mechanics
