// Mobility of the output rocker and of the coupler of a four-bar in terms of Freudenstein's k
// (Angeles et al., Diseño cinemático de maquinaria (1984), paper "An algebraic formulation of
// Grashof's mobility criteria ...", eqs. (23)-(37)), with two fixes:
// - the coupler conditions (32a,b) and (37a,b) as printed are wrong; the discriminant of eq. (30)
//   (resp. (34)) is concave in cos(theta), so it stays positive over a full turn of the coupler
//   exactly when it is positive at theta = 0 and theta = pi:
//     (1 - m3)^2 > (m1 + m2)^2 and (1 + m3)^2 > (m1 - m2)^2            (32, fixed)
//     (1 + n3)^2 > (n1 + n2)^2 and (1 - n3)^2 > (n1 - n2)^2            (37, fixed)
//   Both describe the coupler's rotation relative to the frame (theta is its absolute angle in
//   eqs. (28) and (33)) and are equivalent;
// - the second-order conditions (25)/(27) as printed depend on cos of the limit only, so they
//   cannot tell a minimum from a maximum (the mirror image of the linkage swaps them); the
//   second derivative is computed here from the implicit function F(psi, phi) = 0 of eq. (2):
//     phi''(psi) = -(k1 + k2 cos phi) / (k3 sin psi - k2 sin phi) at a dead point of the output.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>

namespace kinevo::synthesis {

// The coupler's mobility relative to the frame from k (links scaled to a1 = 1, a2 = 1/k2,
// a4 = 1/k3 signed, a3 > 0 by eq. (5)): the parameters of eqs. (29) and (34) and both forms of
// the fixed conditions. With no real a3 the values are NaN and `real` is false.
struct coupler_mobility {
  bool real = false;
  double m1 = 0.0, m2 = 0.0, m3 = 0.0;  // eq. (29)
  double n1 = 0.0, n2 = 0.0, n3 = 0.0;  // eq. (34)
  double c32a = 0.0, c32b = 0.0;        // (1 - m3)^2 - (m1 + m2)^2, (1 + m3)^2 - (m1 - m2)^2
  double c37a = 0.0, c37b = 0.0;        // (1 + n3)^2 - (n1 + n2)^2, (1 - n3)^2 - (n1 - n2)^2
  bool turns() const { return c32a > 0.0 && c32b > 0.0; }
};
coupler_mobility coupler_conditions(const Eigen::Vector3d& k);

// The discriminant of eq. (30) at theta = 0 (which = 0) or theta = pi (which = 1): (32, fixed).
double coupler_condition(const Eigen::Vector3d& k, int which);

// The output's discriminant at phi = 0 (which = 0) or phi = pi (which = 1): the factors of
// (19b), i.e. the input's h1, h2 at the swapped k. The output is a rocker when one is negative.
double output_factor(const Eigen::Vector3d& k, int which);

// The output rocker's extremes on the circuit through `phi_on_circuit` (radians): from the
// output rocker limits (eq. (26)), the input angle there, eq. (27) as printed, and the second
// derivative phi''(psi) (> 0 at a minimum, < 0 at a maximum).
struct rocker_extremes {
  bool rocker = false;                          // the output has two limits on this circuit
  double min = 0.0, max = 0.0;                  // phi, radians, max > min
  double psi_at_min = 0.0, psi_at_max = 0.0;    // radians
  double printed_27a = 0.0, printed_27b = 0.0;  // k1 + k3 + (1 + k2) cos phi at min, max
  double curvature_min = 0.0, curvature_max = 0.0;
  bool printed_holds() const { return printed_27a >= 0.0 && printed_27b <= 0.0; }
  bool second_order_holds() const { return curvature_min > 0.0 && curvature_max < 0.0; }
};
rocker_extremes output_rocker_extremes(const Eigen::Vector3d& k, double phi_on_circuit);

// phi''(psi) at a dead point (psi, phi) of the output (see the file comment).
double output_dead_point_curvature(const Eigen::Vector3d& k, double psi, double phi);

// The link-type conditions of a synthesised linkage as a report: the output-rocker factors and
// extremes (on the circuit through phi_on_circuit), the coupler conditions (32)/(37) fixed, the
// requirements asked for and whether each holds.
struct link_type_conditions {
  bool output_rocker_required = false;
  std::string coupler_required = "none";  // none, crank or rocker
  double output_factor_zero = 0.0, output_factor_pi = 0.0;
  bool output_rocker = false;  // a factor negative and the output does not turn fully
  rocker_extremes output_extremes;
  coupler_mobility coupler;
  bool output_holds() const { return !output_rocker_required || output_rocker; }
  bool coupler_holds() const;
  bool holds() const { return output_holds() && coupler_holds(); }
  std::string text() const;  // lines for the full report
  nlohmann::json to_json() const;
};
link_type_conditions evaluate_link_types(const Eigen::Vector3d& k, double phi_on_circuit,
                                         bool output_rocker_required,
                                         const std::string& coupler_required);

}  // namespace kinevo::synthesis
