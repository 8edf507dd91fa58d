// RESC13: the offset slider-crank (RRRP) driven by its crank angle psi (Angeles et al., Diseño
// cinemático de maquinaria, paper "Software para el análisis digital de sistemas mecánicos",
// eqs. (34)-(38), with the reference's fixes). Crank a2 about the origin, coupler a3 at angle
// phi, slider at distance a along the x axis and offset a1:
//   a = a2 cos(psi) + a3 cos(phi),  a1 = a3 sin(phi) - a2 sin(psi)   (eq. (34a,b))
#pragma once

#include <string>
#include <vector>

#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis {

struct rrrp_dimensions {
  double a1 = 0.0;  // offset of the slide line (any sign)
  double a2 = 0.0, a3 = 0.0;
  int branch = 1;  // sign of cos(phi): +1 the slider ahead of the crank pin, -1 behind
  void validate() const;
};

class rrrp_loop : public planar_loop {
 public:
  explicit rrrp_loop(const rrrp_dimensions& d);  // validates
  std::string kind() const override { return "rrrp"; }
  std::string input_name() const override { return "psi"; }
  std::vector<std::string> output_names() const override { return {"phi", "a"}; }
  std::vector<bool> output_is_angle() const override { return {true, false}; }
  // Transmission angle: pi/2 - phi, between the coupler and the normal to the slide.
  loop_state state_at(const motion_sample& input) const override;
  loop_mobility mobility() const override;
  std::string describe() const override;

 private:
  rrrp_dimensions d_;
};

}  // namespace kinevo::analysis
