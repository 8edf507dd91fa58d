// The `reuse` formulation: every coordinate integrated (the state is (q, q') as for `full`),
// the acceleration from GIGSP with the generalized inverse of the last exact step reused in
// between (generalized-inverse dissertation (GIGSP), section 4.3.3; mechanics/
// approximate_inverse.hpp), an exact inverse every formulation_options::reuse_exact_every
// accepted steps (5 in the dissertation). The difference from the exact acceleration is
// compensated by simulation_options::stabilization:
//   baumgarte   b* = b - 2 alpha Phi' - beta^2 Phi in each solve (eqs. 2.39-2.45, applied by
//               the simulation before the solve);
//   projection  q and q' projected onto the constraints with weight M after each accepted step
//               (eqs. 2.46-2.53; the dissertation projects the acceleration, eqs. 2.54-2.56,
//               which needs the exact (A M^-1 A^T)^-1 that reuse avoids);
//   none        allowed, uncompensated: the violation then grows with the reuse error.
// Holonomic constraints only: the dissertation's Figs. 4.17-4.19 show it failing on a
// nonholonomic row, so the constructor refuses such rows by name.
//
// When G is exact: at the first solve of the run, and at the state accepted after every
// reuse_exact_every-th RK4 step (after its projection). Over N steps that is floor(N / k) + 1
// exact inverses (report().exact_inverses). The result is first-order accurate in h k: the
// energy deviation scales with it (about 0.06 on the double pendulum over 2 s at h = 1e-4,
// k = 5; tests/mechanics/test_reuse_formulation.cpp bounds what was measured).
#pragma once

#include "kinevo/mechanics/dynamics/detail/full_coordinates.hpp"
#include "kinevo/mechanics/dynamics/simulation_result.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/approximate_inverse.hpp"

namespace kinevo::mechanics {

class reuse_formulation : public full_coordinates {
 public:
  // `simulation` gives the compensation (stabilization, projection tolerance and iterations)
  // and the integrator. Throws io::input_error naming the nonholonomic rows when the model has
  // any, and io::option_error (field "integrator") for Dormand-Prince: its error control sees
  // the jump of G at each exact step as local error (the step size collapses) and cannot see
  // the reuse error itself, so reuse runs with the fixed-step RK4 as in the dissertation.
  reuse_formulation(const model& m, int exact_every, const simulation_options& simulation);
  formulation_kind kind() const override { return formulation_kind::reuse; }
  // Always its own approximate-inverse solver; the user's solver is not used.
  acceleration_solver& solver(acceleration_solver& /*user*/) override;
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

 private:
  const model& model_;
  int exact_every_;
  stabilization_kind stabilization_;
  double tolerance_;
  int iterations_;
  long long steps_ = 0;  // accepted steps
  approximate_inverse_solver solver_;
  constrained_system system_;  // for the refresh at accepted states
};

}  // namespace kinevo::mechanics
