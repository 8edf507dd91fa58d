// Integration in independent coordinates p = B q (B: k x n, k = n - rank Phi_q), frozen between
// re-bases; the dependent part of q is recovered at every stage. The common part of coordinate
// partitioning (B selects the independent coordinates: Yoo, Kim and Kim, eqs. 7-9) and of the
// QTZ state-space form (B = Q2^T: Del Citto, Pennestri and Vita, eqs. 54-65):
//   positions   Newton on [Phi(q); B q - p] = 0 from the last recovered q   (Yoo eq. 8, QTZ 55)
//   velocities  [Phi_q; B] q' = [-Phi_t; p']                                 (Yoo eq. 9, QTZ 55)
//   derivative  (p', p'') = (B q', B q''), q'' from the stage's acceleration solver.
// Holonomic constraints only (make_formulation refuses nonholonomic rows).
#pragma once

#include <Eigen/Core>

#include "kinevo/mechanics/dynamics/detail/stacked_solve.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

class reduced_coordinates : public formulation {
 public:
  reduced_coordinates(const model& m, const formulation_options& options);

  Eigen::VectorXd begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) override;
  bool expand(const Eigen::VectorXd& y, double t, Eigen::VectorXd& q, Eigen::VectorXd& qd) override;
  Eigen::VectorXd derivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                             const Eigen::VectorXd& qdd) override;
  // Expands y, asks rebase_wanted() and, if so, chooses a new basis there (y = (B q, B q')).
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

  const Eigen::MatrixXd& basis() const { return basis_; }
  // The last recovered full state (after expand or after_step).
  const Eigen::VectorXd& positions() const { return q_; }
  const Eigen::VectorXd& velocities() const { return qd_; }

 protected:
  // The basis at (q, t): k x n with [Phi_q; B] of full column rank n.
  virtual Eigen::MatrixXd choose_basis(const Eigen::VectorXd& q, double t) = 0;
  // After an accepted step at (q, t): whether to choose a new basis.
  virtual bool rebase_wanted(const Eigen::VectorXd& q, double t) = 0;

  const model& model_;
  formulation_options options_;

 private:
  bool recover_positions(const Eigen::VectorXd& p, double t);
  bool recover_velocities(const Eigen::VectorXd& pd, double t);
  void factor_stacked(const Eigen::VectorXd& q, double t);  // [Phi_q; B] at (q, t)
  void set_basis(Eigen::MatrixXd basis);                    // basis_ and stacked_'s B

  Eigen::MatrixXd basis_;
  stacked_solve stacked_;
  // Where stacked_ was last factored (with the current basis).
  bool factored_ = false;
  Eigen::VectorXd factored_q_;
  double factored_t_ = 0.0;
  Eigen::VectorXd q_, qd_;  // last recovered full state
  // The last accepted state: Newton starts from q_accepted_ + (t - t_accepted_) qd_accepted_.
  Eigen::VectorXd q_accepted_, qd_accepted_;
  double t_accepted_ = 0.0;
};

}  // namespace kinevo::mechanics
