// Udwadia-Kalaba (generalized-inverse dissertation (GIGSP), eqs. 2.14/2.20): a = a_f + L^-T (A
// L^-T)^+ (b - A a_f), the Moore-Penrose inverse through a complete orthogonal decomposition.
// Correct for redundant rows; for an inconsistent set it returns the least-squares compromise and
// says so (status least_squares).
#pragma once

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

class udwadia_kalaba_solver final : public acceleration_solver {
 public:
  explicit udwadia_kalaba_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;

 private:
  direct_solver_options options_;
};

}  // namespace kinevo::mechanics
