// QTZ constraint orthogonalisation (Del Citto, Pennestri and Vita, "Coordinates reduction and
// numerical integration of models of constrained multibody systems", eq. 47): every coordinate
// is integrated, as in the full formulation, with the accelerations of the QTZ solver
// (Q2^T M q'' = Q2^T g with the r independent combined constraints,
// mechanics/solvers/qtz_solver.hpp). After each step (the paper: "monitor and eventually correct")
// the state goes back onto the constraints through the QTZ decomposition at the current q:
//   positions   Newton dq = -Q1^ C Phi (minimum norm; Psi''_q dq = -Psi'', eqs. 34 and 41-46)
//               until max |Phi| and max |dq| are within newton_tolerance, at most
//               newton_iterations (near a singular configuration |Phi| alone misses a drift along
//               the other branch)
//   velocities  A dq' = A q' + a_t (all rows, nonholonomic ones too) with Q2^T M dq' = 0
//               (eqs. 64-67 with g = 0): M-orthogonal to the null space, so the correction
//               changes the kinetic energy only at second order.
#pragma once

#include "kinevo/mechanics/dynamics/detail/full_coordinates.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"

namespace kinevo::mechanics {

class qtz_orthogonal_formulation : public full_coordinates {
 public:
  // Reads rank_tolerance, newton_tolerance and newton_iterations.
  qtz_orthogonal_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::qtz_orthogonal; }
  // Its own QTZ solver, whatever --solver says: eq. 47 is a QTZ method.
  acceleration_solver& solver(acceleration_solver& /*user*/) override { return solver_; }
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

 private:
  const model& model_;
  formulation_options options_;
  qtz_solver solver_;
  constrained_system system_;  // workspace for the velocity rows
  qtz_workspace workspace_;    // the sparse path's analysis of Phi_q's pattern
};

}  // namespace kinevo::mechanics
