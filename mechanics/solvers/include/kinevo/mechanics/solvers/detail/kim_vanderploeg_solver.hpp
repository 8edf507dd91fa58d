// Kim-Vanderploeg (generalized-inverse dissertation (GIGSP), eqs. 4.3-4.7): QR with column
// pivoting of A^T = [Q_1 Q_2] R; particular solution on the independent rows, a = a_p + Q_2 (Q_2^T
// M Q_2)^-1 Q_2^T (f - M a_p). Rows found dependent are checked: inconsistent ones are refused by
// name.
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

class kim_vanderploeg_solver final : public acceleration_solver {
 public:
  explicit kim_vanderploeg_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  void solve_into(const constrained_system& system, acceleration_result& out) override;

 private:
  direct_solver_options options_;
  // Kept between solves so that their storage is reused (same sizes at every state).
  mass_factor mf_;
  Eigen::VectorXd a_f_, b_i_, a_, res_, work_;
  Eigen::MatrixXd q_, q2_, mq2_, reduced_mass_;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr_;
  Eigen::LLT<Eigen::MatrixXd> reduced_llt_;
};

}  // namespace kinevo::mechanics
