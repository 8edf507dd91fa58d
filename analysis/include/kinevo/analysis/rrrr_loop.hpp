// RESC11: the planar four-bar (RRRR) driven by its crank angle psi (Angeles et al., Diseño
// cinemático de maquinaria, paper "Software para el análisis digital de sistemas mecánicos",
// eqs. (1)-(25), with the fixes of the reference noted where used). Loop:
//   a2 e^{i psi} + a3 e^{i theta} = a1 + a4 e^{i phi}
// frame a1 along +x from the input pivot, crank a2, coupler a3 (angle theta), output link a4
// (angle phi). The coupler point sits at distance r from the crank pin, at angle alpha from the
// coupler line.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis {

struct rrrr_dimensions {
  double a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;
  double coupler_r = 0.0;      // distance of the coupler point from the crank pin
  double coupler_alpha = 0.0;  // rad, from the coupler line (crank pin towards the output pin)
  // Assembly branch: +1 when sin(phi - theta) > 0 (the output pin to the left of the diagonal
  // from the crank pin to the output pivot), -1 on the other side.
  int branch = 1;
  void validate() const;  // throws io::option_error naming the field
};

// Freudenstein's coefficients, eq. (2): k1 = (a3^2 - a1^2 - a2^2 - a4^2)/(2 a2 a4), k2 = a1/a2,
// k3 = a1/a4, of k1 - k2 cos(phi) + k3 cos(psi) + cos(phi - psi) = 0 (eq. (1') as fixed: printed
// with "- cos phi cos psi - sin phi sin psi").
std::array<double, 3> freudenstein_k(const rrrr_dimensions& d);

// Both roots phi of eqs. (5a-c), (7a) with the leading minus restored, T1 = -(B + sgn(B)
// sqrt(B^2 - 4AC))/(2A), and (7b) T2 = C/(A T1); phi = 2 atan(T). Empty when B^2 < 4AC (no
// assembly at this psi).
std::vector<double> rrrr_output_roots(const rrrr_dimensions& d, double psi);

// cos(psi) at the input's limits: the roots of cos^2 psi + 2 b cos psi + c = 0, eqs. (8)-(10),
// with the fixed (10a,b) b = (k2 + k1 k3)/k3^2, c = (k1^2 - k2^2 - 1)/k3^2 (printed over k3).
std::array<double, 2> rrrr_dead_point_cosines(const rrrr_dimensions& d);

class rrrr_loop : public planar_loop {
 public:
  explicit rrrr_loop(const rrrr_dimensions& d);  // validates
  std::string kind() const override { return "rrrr"; }
  std::string input_name() const override { return "psi"; }
  std::vector<std::string> output_names() const override;
  std::vector<bool> output_is_angle() const override { return {true, true, false, false}; }
  loop_state state_at(const motion_sample& input) const override;
  loop_mobility mobility() const override;
  std::string describe() const override;
  const rrrr_dimensions& dimensions() const { return d_; }

 private:
  rrrr_dimensions d_;
};

}  // namespace kinevo::analysis
