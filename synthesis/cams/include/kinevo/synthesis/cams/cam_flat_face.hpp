// Translating flat-face follower: Angeles et al., Diseño cinemático de maquinaria, paper "Diseño
// automatizado de mecanismos de leva de disco con seguidor traslacional de cara plana". s = r_b +
// sigma; the contact point is (s', s) in the follower frame (1)-(4), eq. (5) fixed: theta =
// atan2(s, s') - psi (printed atan(s'/s) - psi); the cam turns counterclockwise.
#pragma once

#include "kinevo/synthesis/cams/cam_analysis.hpp"

namespace kinevo::synthesis {

struct flat_face_options {
  double max_eccentricity = 0.5;         // r_max: largest |s'| per unit base radius, (8)-(11)
  double min_radius_of_curvature = 0.0;  // margin: the cam's radius r_b + s + s'' stays above
  double base_radius_max = 1e6;          // the box: no design when r_b must exceed this
  int samples = 3600;
  void validate() const;  // io::option_error naming the field
};

struct flat_face_design {
  double base_radius = 0.0;
  double eccentricity_radius = 0.0;  // max|s'| / r_max, the source's r_b (11)
  double curvature_radius = 0.0;     // min_radius_of_curvature - min(sigma + sigma'')
  double max_abs_ds = 0.0;           // max |s'|, where the face must reach
};

// r_b = max(max|s'| / r_max, margin - min(sigma + sigma'')), the extremes refined by golden
// section: the source's (11) plus the curvature check the paper lacks.
flat_face_design design_flat_face(const cam_motion_programme& programme,
                                  const flat_face_options& o);

// The contact curve (the profile itself) and its radius of curvature; pressure angle 0.
cam_analysis analyse_flat_face(const cam_motion_programme& programme, double base_radius,
                               const flat_face_options& o);

}  // namespace kinevo::synthesis
