// Constrained accelerations through the QTZ decomposition of A (Del Citto, Pennestri and Vita,
// "Coordinates reduction and numerical integration of models of constrained multibody
// systems", eqs. 15-35 and 54-67): with A^T P = Q [T 0; 0 0] Z, the r combined rows C A have
// full row rank, and
//   gamma'' = C b                                   (eq. 62)
//   M^ p'' = Q2^T (f - M Q1^ gamma''),  M^ = Q2^T M Q2   (eqs. 64-66; LLT, M^ is SPD with M)
//   q'' = Q1^ gamma'' + Q2 p''                       (eq. 67; Q2^ = Q2)
// The m - r dropped combinations of b must vanish (redundant rows); otherwise the set is refused
// as inconsistent, naming the rows that carry the disagreement. Works for any A (nonholonomic
// rows too). constraint_force = M (q'' - a_f).
#pragma once

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

class qtz_solver final : public acceleration_solver {
 public:
  // Reads rank_tolerance and consistency_tolerance.
  explicit qtz_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  // A decomposition of `jacobian` made elsewhere with the same rank_tolerance (a formulation's
  // correction after a step, at the state the next step starts from): the next solve takes it
  // when its A equals `jacobian` exactly, instead of decomposing the same matrix again. Both taken
  // by value: a caller done with them moves them in rather than copying their dense matrices.
  void offer(Eigen::MatrixXd jacobian, qtz_decomposition d);

 private:
  qtz_decomposition decompose(const Eigen::MatrixXd& jacobian);
  direct_solver_options options_;
  qtz_workspace workspace_;  // the sparse path's analysis of Phi_q's pattern, step to step
  Eigen::MatrixXd offered_jacobian_;
  qtz_decomposition offered_;
  bool has_offer_ = false;
};

}  // namespace kinevo::mechanics
