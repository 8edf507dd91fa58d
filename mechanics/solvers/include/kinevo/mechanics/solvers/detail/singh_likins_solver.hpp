// Singh-Likins (generalized-inverse dissertation (GIGSP), eqs. 4.1-4.2): SVD A = U S V^T, a =
// A^+ b + V_2 (V_2^T M V_2)^-1 (V_2^T f - V_2^T M A^+ b). An inconsistent set gives the
// least-squares compromise, reported as such.
#pragma once

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

class singh_likins_solver final : public acceleration_solver {
 public:
  explicit singh_likins_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;

 private:
  direct_solver_options options_;
};

}  // namespace kinevo::mechanics
