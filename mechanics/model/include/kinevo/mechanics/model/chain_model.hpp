// An N-link pendulum chain as model-file text, for benchmarks and scaling studies.
// Planar: particles joined by distance joints, n = 2N coordinates, m = N constraints, A with 4
// non-zeros per row (the first row 2), so A M^-1 A^T is tridiagonal.
// Spatial: rigid slender links (Euler parameters) joined by spherical joints, n = 7N
// coordinates, m = 4N rows (3 per joint, 1 normalisation per link), M block-diagonal.
#pragma once

#include <string>

namespace kinevo::mechanics {

struct chain_options {
  int links = 10;           // N >= 1
  double length = 1.0;      // m, each link
  double mass = 1.0;        // kg, each particle
  double gravity = 9.81;    // m/s^2, along -y
  double angle_deg = 30.0;  // initial angle of the straight chain from the downward vertical
  // Spatial links on spherical joints, the straight chain turning about the vertical through the
  // pivot at spin rad/s (a rigid rotation, so the initial velocities satisfy the joints).
  bool spatial = false;
  double spin = 1.0;

  // Throws io::option_error (a std::invalid_argument) naming the field and its allowed range:
  // links in [1, 100000], length and mass finite and > 0, gravity and spin finite, angle_deg in
  // [-360, 360] (a NaN or an infinite angle would be written into a model file that then fails
  // to load).
  void validate() const;
};

// Calls options.validate() first.
std::string chain_model_text(const chain_options& options);

}  // namespace kinevo::mechanics
