// Analysis of a four-bar function generator given Freudenstein's k: the two assembly branches of
// the output angle, structural error, dead points, transmission angle and full-rotation checks.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "kinevo/synthesis/linkages/freudenstein.hpp"

namespace kinevo::synthesis {

// Output angles of both branches for input psi (radians), from A T^2 - 2 B T + C = 0,
// T = tan(phi/2) (Angeles et al., Diseño cinemático de maquinaria (1984), Grashof paper,
// eqs. (7)-(9)), computed without cancellation; A = 0 gives phi = 2 atan(C / 2B) and pi (eq. 9b).
struct output_angles {
  bool assembles = false;  // discriminant B^2 - A C >= 0
  double plus = 0.0;       // branch phi = 2 atan((B + sqrt(D)) / A), in (-pi, pi]
  double minus = 0.0;      // branch phi = 2 atan((B - sqrt(D)) / A)
};
output_angles fourbar_output(const Eigen::Vector3d& k, double psi);
// Discriminant B^2 - A C of eq. (7) at psi.
double fourbar_discriminant(const Eigen::Vector3d& k, double psi);

// Angle difference wrapped to (-pi, pi].
double wrap_angle(double a);

struct structural_error {
  int branch = 1;                 // +1 or -1: the branch closest to the table (RMS)
  std::vector<double> generated;  // phi produced by the linkage (radians; NaN: no assembly)
  std::vector<double> error;      // prescribed - generated (radians, wrapped; NaN: no assembly)
  double max_abs = 0.0;           // largest |error| (radians), infinite if any point fails
  double rms = 0.0;
  int unassembled = 0;  // points where the linkage does not assemble
};
structural_error fourbar_structural_error(const Eigen::Vector3d& k, const std::vector<double>& psi,
                                          const std::vector<double>& phi);

// Input angles (radians, in [0, pi] and their negatives) at which the input link has a dead
// point: the discriminant vanishes (Grashof paper, eqs. (11)-(12)).
std::vector<double> input_dead_points(const Eigen::Vector3d& k);
// Output angles at which the output link has a dead point (the same with k2 <-> -k3, eq. (26)).
std::vector<double> output_dead_points(const Eigen::Vector3d& k);

// True when the discriminant stays positive over a full turn of the input (samples points
// evenly; the linkage assembles in every position), i.e. the input really is a crank.
bool input_turns_fully(const Eigen::Vector3d& k, int samples = 3600);
bool output_turns_fully(const Eigen::Vector3d& k, int samples = 3600);

// Transmission angle (radians, in [0, pi]) between coupler and output link at input psi:
// cos mu = (a3^2 + a4^2 - d^2) / (2 |a3 a4|), d^2 = a1^2 + a2^2 - 2 a1 a2 cos psi.
double transmission_angle(const fourbar_links& links, double psi);

// Smallest deviation of the transmission angle from 90 degrees turned into the usual figure of
// merit: min over psi of min(mu, pi - mu), on the given input angles.
double min_transmission_angle(const fourbar_links& links, const std::vector<double>& psi);

}  // namespace kinevo::synthesis

namespace kinevo::synthesis {

// The generated output on a dense sweep of the table's input range, on one branch, beside the
// piecewise-linear interpolation of the table (the only prescribed function a table gives).
struct fourbar_sweep {
  std::vector<double> psi, generated, interpolated, difference;  // radians; NaN: no assembly
};
fourbar_sweep sweep_fourbar(const Eigen::Vector3d& k, int branch, const std::vector<double>& psi,
                            const std::vector<double>& phi, int samples = 361);

}  // namespace kinevo::synthesis
