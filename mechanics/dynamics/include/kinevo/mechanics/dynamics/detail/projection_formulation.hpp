// The projection method of Yoo, Kim and Kim, "A hybrid scheme using LU decomposition and
// projection matrix for dynamic analysis of constrained multibody systems", eqs. 10-20: every
// coordinate integrated (y = (q, q')), accelerations from the null-space projection solver
// (eqs. 10-19), and after each accepted step
//   positions   Newton on [Phi_q; P_T^T] dq = [-Phi; 0] (eq. 20), least squares through a
//               complete orthogonal decomposition (rank-revealing near singular configurations)
//   velocities  q' = I_R (-Phi_t) + P_N q' (eq. 13 with z' = B^T q'), I_R in the metric of M
//               (see correct_velocities)
// with I_R, P_N and P_T of the whole constraint Jacobian A (nonholonomic rows included) at the
// corrected positions. A large sparse A clear of a singular configuration takes sparse paths to
// the same steps (sparse_position_correction.hpp; the velocities through sparse_gram).
#pragma once

#include "kinevo/mechanics/dynamics/detail/full_coordinates.hpp"
#include "kinevo/mechanics/dynamics/detail/sparse_position_correction.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/null_space_projection.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"

namespace kinevo::mechanics {

class projection_formulation : public full_coordinates {
 public:
  projection_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::projection; }
  acceleration_solver& solver(acceleration_solver& /*user*/) override { return solver_; }
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

 private:
  // Eq. 20 on q (`moved`: whether q changed); false (message_ naming the most violated
  // constraint) when Newton does not reach options_.newton_tolerance.
  bool correct_positions(Eigen::VectorXd& q, double t, bool& moved);
  // Whether the model is large and sparse enough for the sparse paths to pay.
  bool sparse_worthwhile() const;
  // Eq. 13 on q' at corrected q when the velocity violation exceeds `tolerance`; whether q'
  // changed.
  bool correct_velocities(const Eigen::VectorXd& q, Eigen::VectorXd& qd, double t,
                          double tolerance);

  const model& model_;
  formulation_options options_;
  null_space_projection_solver solver_;
  constrained_system system_;  // scratch for the Jacobian of all rows
  sparse_position_correction sparse_positions_;
  sparse_gram gram_;
};

}  // namespace kinevo::mechanics
