// The QTZ state-space form in a minimum set of coordinates (Del Citto, Pennestri and Vita,
// "Coordinates reduction and numerical integration of models of constrained multibody
// systems", eqs. 54-67): the integrated coordinates are p = B q with B = Q2^T M, the
// transposed null-space basis of Phi_q from the QTZ decomposition (eq. 55) weighted by the mass
// matrix (so that p'' = Q2^T g, eq. 47, and constraint-force round-off near singular
// configurations does not reach p''; the paper's B = Q2^T complements Phi_q's rows too), re-chosen
// after every step as in the paper. The dependent part of q is recovered by Newton and the
// velocities from [Phi_q; B] q' = [-Phi_t; p'] (mechanics/dynamics/detail/reduced_coordinates.hpp);
// the accelerations come from the QTZ solver, q'' = Q1^ gamma'' + Q2 p'' with M^ p'' = Q2^T g - M'
// gamma'' (eqs. 62-67; the right-hand side needs the full gamma, which the model's b is). Holonomic
// constraints only: the constructor refuses nonholonomic rows by name.
#pragma once

#include "kinevo/mechanics/dynamics/detail/reduced_coordinates.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"

namespace kinevo::mechanics {

class qtz_state_formulation : public reduced_coordinates {
 public:
  // Throws io::input_error naming the nonholonomic rows of `m`, if any.
  qtz_state_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::qtz_state; }
  // Its own QTZ solver, whatever --solver says.
  acceleration_solver& solver(acceleration_solver& /*user*/) override { return solver_; }
  // The rank of Phi_q at the last basis choice.
  int rank() const { return rank_; }

 protected:
  Eigen::MatrixXd choose_basis(const Eigen::VectorXd& q, double t) override;
  bool rebase_wanted(const Eigen::VectorXd& q, double t) override;

 private:
  qtz_solver solver_;
  constrained_system system_;  // workspace for M at the basis state
  int rank_ = -1;              // none chosen yet
  qtz_workspace workspace_;    // the sparse path's analysis of Phi_q's pattern
};

}  // namespace kinevo::mechanics
