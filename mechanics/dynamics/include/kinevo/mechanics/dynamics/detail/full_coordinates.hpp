// The formulations that integrate every coordinate (full, projection, qtz-orthogonal, reuse,
// qtz-reduced's records): the integrated state is y = (q, q') itself and dy/dt = (q', q'').
// They differ in the solver and in what they correct after a step.
#pragma once

#include <Eigen/Core>

#include "kinevo/mechanics/dynamics/formulation.hpp"

namespace kinevo::mechanics {

// (q, q') packed as one vector, and back.
Eigen::VectorXd pack_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd);
void split_state(const Eigen::VectorXd& y, Eigen::VectorXd& q, Eigen::VectorXd& qd);

class full_coordinates : public formulation {
 public:
  Eigen::VectorXd begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        double /*t*/) override {
    return pack_state(q, qd);
  }
  bool expand(const Eigen::VectorXd& y, double /*t*/, Eigen::VectorXd& q,
              Eigen::VectorXd& qd) override {
    split_state(y, q, qd);
    return true;
  }
  Eigen::VectorXd derivative(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& qd,
                             const Eigen::VectorXd& qdd) override {
    return pack_state(qd, qdd);
  }
  void derivative_into(const Eigen::VectorXd& /*q*/, const Eigen::VectorXd& qd,
                       const Eigen::VectorXd& qdd, Eigen::VectorXd& dy) override {
    dy.resize(qd.size() + qdd.size());
    dy << qd, qdd;
  }
};

}  // namespace kinevo::mechanics
