// Kim-Vanderploeg (generalized-inverse dissertation (GIGSP), eqs. 4.3-4.7): QR with column
// pivoting of A^T = [Q_1 Q_2] R; particular solution on the independent rows, a = a_p + Q_2 (Q_2^T
// M Q_2)^-1 Q_2^T (f - M a_p). Rows found dependent are checked: inconsistent ones are refused by
// name.
#pragma once

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

class kim_vanderploeg_solver final : public acceleration_solver {
 public:
  explicit kim_vanderploeg_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;

 private:
  direct_solver_options options_;
};

}  // namespace kinevo::mechanics
