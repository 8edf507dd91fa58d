// Oscillating roller follower: Angeles et al., Diseño cinemático de maquinaria, paper "Optimal
// synthesis of oscillating roller-follower cam mechanisms". Pivot at distance a = 1 from the cam
// centre on the +x axis, arm b = B a, arm angle phi = c + sigma(psi) (1) measured from the line
// pivot -> cam centre, roller centre (1 - B cos phi, B sin phi). One sense throughout: the cam
// turns by sense * psi (+1 counterclockwise), and then eq. (5) reads cos alpha = sin phi /
// sqrt(1 + B^2 k^2 - 2 B k cos phi) with k = 1 + sense phi' (the paper's (5) has k = 1 + phi',
// counterclockwise; its (12)-(13) use 1 - phi', the clockwise sense).
#pragma once

#include "kinevo/synthesis/cams/cam_analysis.hpp"

namespace kinevo::synthesis {

struct oscillating_roller_options {
  double max_pressure_angle = 0.5235987755982988;  // alpha_m, radians (30 deg)
  double roller_fraction = 0.75;                   // q of (14): r = q (rho_p)min
  // The roller must leave the pivot (and its pin) outside: r = min(q (rho_p)min, this * b). Not in
  // the paper; without it the example's smallest cams carry a roller larger than their arm.
  double max_roller_arm_ratio = 0.8;
  int sense = 1;                      // +1 counterclockwise, -1 clockwise
  double b_min = 0.05, b_max = 0.95;  // search box for B = b / a
  double c_min = 0.017453292519943295, c_max = 3.12413936106985;  // for c, radians (1, 179 deg)
  int samples = 3600;
  void validate() const;  // io::option_error naming the field
};

struct oscillating_roller_design {
  double b_ratio = 0.0;  // B
  double c = 0.0;        // arm angle at the lower dwell, radians
};

// The roller centre (1 - B cos phi, B sin phi) and its psi-derivatives.
follower_point roller_centre(const oscillating_roller_design& d, const programme_value& sigma);

// Eq. (5) in signed form: tan alpha = (cos phi - B k) / sin phi.
double oscillating_pressure_angle(const programme_value& sigma, const oscillating_roller_design& d,
                                  int sense);
// Samples the design; roller r = min(q (rho_p)min (14), max_roller_arm_ratio B).
cam_analysis analyse_oscillating_roller(const cam_motion_programme& programme,
                                        const oscillating_roller_design& d,
                                        const oscillating_roller_options& o);
// The pitch curve's smallest distance from the cam centre, min sqrt(1 + B^2 - 2 B cos phi) (2):
// the size the optimiser minimises.
double oscillating_base_radius(const cam_motion_programme& programme,
                               const oscillating_roller_design& d, int samples);

// The source's condition (9)-(10), cos c = B (zero pressure angle at the lower dwell): the B in
// the box with the smallest max |alpha| under it (golden section after a scan).
struct oscillating_source_best {
  oscillating_roller_design design;
  double max_abs_pressure_angle = 0.0;
};
oscillating_source_best oscillating_roller_source_best(const cam_motion_programme& programme,
                                                       const oscillating_roller_options& o);

// The smallest base radius in the (B, c) box with |alpha| <= alpha_m over the whole turn, cos c =
// B not imposed: for each B of a scan the smallest feasible c (scan, then bisection), then golden
// section on B around the best. found = false when no point of the box meets the bound.
struct oscillating_roller_optimum {
  bool found = false;
  oscillating_roller_design design;
};
oscillating_roller_optimum optimise_oscillating_roller(const cam_motion_programme& programme,
                                                       const oscillating_roller_options& o);

}  // namespace kinevo::synthesis
