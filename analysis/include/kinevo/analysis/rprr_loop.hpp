// RESC12: the RPRR loop driven by the length a(t) of its prismatic pair, e.g. a hydraulic
// cylinder (Angeles et al., Diseño cinemático de maquinaria, paper "Software para el análisis
// digital de sistemas mecánicos", eqs. (26)-(33)). The cylinder's base pivot is the origin, the
// driven link a2 turns about (a1, 0); psi is the link's angle, theta the cylinder's:
//   a cos(theta) = a2 cos(psi) + a1,  a sin(theta) = a2 sin(psi)   (eq. (29a,b))
#pragma once

#include <string>
#include <vector>

#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis {

struct rprr_dimensions {
  double a1 = 0.0, a2 = 0.0;
  int branch = 1;  // sign of sin(psi): +1 the link above the frame line, -1 below
  void validate() const;
};

class rprr_loop : public planar_loop {
 public:
  explicit rprr_loop(const rprr_dimensions& d);  // validates
  std::string kind() const override { return "rprr"; }
  std::string input_name() const override { return "a"; }
  std::vector<std::string> output_names() const override { return {"psi", "theta"}; }
  std::vector<bool> output_is_angle() const override { return {true, true}; }
  // Transmission angle: g = psi - theta, between the cylinder and the driven link.
  loop_state state_at(const motion_sample& input) const override;
  loop_mobility mobility() const override;
  std::string describe() const override;

 private:
  rprr_dimensions d_;
};

}  // namespace kinevo::analysis
