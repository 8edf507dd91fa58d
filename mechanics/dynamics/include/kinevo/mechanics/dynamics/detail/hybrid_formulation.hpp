// The hybrid scheme of Yoo, Kim and Kim, "A hybrid scheme using LU decomposition and projection
// matrix for dynamic analysis of constrained multibody systems", section 5 (steps 1-13): coordinate
// partitioning by LU (eqs. 7-9, cheap: k independent coordinates) by default, the projection
// method (eqs. 10-20, robust through singular configurations) while partitioning is in trouble:
//   LU -> projection  when, after an accepted step (formulation_options, the hybrid_* fields),
//     - the dependent coordinates were re-partitioned hybrid_repartitions times within the last
//       hybrid_window steps (frequent changes of the independent coordinates),
//     - |E_k - E_k-1| > hybrid_energy_tolerance max(1, |E_k|) (a distinct variation of the total
//       energy; models without an energy skip this test),
//     - h < hybrid_step_drop times the previous step (a sudden drop of the step size),
//     - the reciprocal condition number of Phi_u is below hybrid_singular_rcond;
//   projection -> LU  after hybrid_stable_steps consecutive steps at the largest step size
//     (h >= 0.99 h_max) at which the block LU would choose has rcond >= hybrid_singular_rcond.
// At a switch the state is converted through the full (q, q'): the integrated state changes
// size, so after_step returns step_outcome::changed. Every switch is logged in report().switches
// with the measured number that caused it.
#pragma once

#include <deque>
#include <optional>

#include "kinevo/mechanics/dynamics/detail/coordinate_partitioning.hpp"
#include "kinevo/mechanics/dynamics/detail/projection_formulation.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

class hybrid_formulation : public formulation {
 public:
  hybrid_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::hybrid; }
  acceleration_solver& solver(acceleration_solver& user) override { return active().solver(user); }
  Eigen::VectorXd begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) override;
  bool expand(const Eigen::VectorXd& y, double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) override;
  Eigen::VectorXd derivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                             const Eigen::VectorXd& qdd) override;
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

  // Whether the projection method is the active one.
  bool projecting() const { return projecting_; }

 private:
  formulation& active() {
    return projecting_ ? static_cast<formulation&>(projection_) : partitioning_;
  }
  // The reason to leave partitioning after this step, empty to stay.
  std::string leave_partitioning(double h, double h_previous,
                                 const std::optional<double>& energy_change, double energy);
  void merge_reports();

  const model& model_;
  formulation_options options_;
  partitioning_formulation partitioning_;
  projection_formulation projection_;
  bool projecting_ = false;
  long long step_ = 0;                       // accepted steps
  std::deque<long long> repartition_steps_;  // steps of the recent re-partitions
  std::optional<double> energy_;             // at the last accepted step
  double h_previous_ = 0.0;
  int stable_steps_ = 0;  // consecutive steps fit for LU (while projecting)
};

}  // namespace kinevo::mechanics
