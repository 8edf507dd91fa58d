// Every coordinate integrated, q'' from the user's solver (the default formulation). After each
// accepted step the optional projection of simulation_options::stabilization: Newton
// projection of q onto Phi = 0 and of q' onto the velocity constraints with weight M
// (generalized-inverse dissertation (GIGSP), eqs. 2.46-2.53).
#pragma once

#include "kinevo/mechanics/dynamics/detail/full_coordinates.hpp"
#include "kinevo/mechanics/dynamics/simulation_result.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

// Projection onto the constraints with weight M (GIGSP dissertation, eqs. 2.46-2.53), at most
// `iterations` Newton steps down to max |Phi| <= tolerance, then q' onto the velocity rows.
// The Moore-Penrose form through a complete orthogonal decomposition tolerates redundant rows.
void project_weighted(const model& m, double t, double tolerance, int iterations,
                      Eigen::VectorXd& q, Eigen::VectorXd& qd);

class full_formulation : public full_coordinates {
 public:
  full_formulation(const model& m, stabilization_kind stabilization, double projection_tolerance,
                   int projection_iterations);
  formulation_kind kind() const override { return formulation_kind::full; }
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

 private:
  const model& model_;
  stabilization_kind stabilization_;
  double tolerance_;
  int iterations_;
};

}  // namespace kinevo::mechanics
