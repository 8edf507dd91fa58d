// The three example programmes of the cam papers (Angeles et al., Diseño cinemático de
// maquinaria): dwell / rise / dwell / return intervals in degrees and the displacement.
#pragma once

#include <numbers>

#include "kinevo/synthesis/cams/cam_motion_programme.hpp"
#include "synthesis_test_support.hpp"

namespace kinevo::test {

inline synthesis::cam_motion_programme cam_programme(double d1, double rise, double d2, double fall,
                                                     double h) {
  using synthesis::cam_phase_kind;
  return synthesis::cam_motion_programme({{cam_phase_kind::dwell, d1 * deg, 0.0},
                                          {cam_phase_kind::rise, rise * deg, h},
                                          {cam_phase_kind::dwell, d2 * deg, 0.0},
                                          {cam_phase_kind::fall, fall * deg, h}});
}
// Translating paper, Table 1: +50 mm.
inline synthesis::cam_motion_programme translating_example() {
  return cam_programme(36, 72, 144, 108, 50.0);
}
// Oscillating paper: the same phases, amplitude 45 deg (in radians).
inline synthesis::cam_motion_programme oscillating_example() {
  return cam_programme(36, 72, 144, 108, 45.0 * std::numbers::pi / 180.0);
}
// Flat-face paper, Tabla 1: h = 5.
inline synthesis::cam_motion_programme flat_face_example() {
  return cam_programme(36, 108, 144, 72, 5.0);
}

}  // namespace kinevo::test
