// An N-link planar pendulum chain as model-file text (particles joined by distance joints),
// for benchmarks and scaling studies: n = 2N coordinates, m = N constraints, A with 4 non-zeros
// per row (the first row 2), so A M^-1 A^T is tridiagonal.
#pragma once

#include <string>

namespace kinevo::mechanics {

struct chain_options {
  int links = 10;           // N >= 1
  double length = 1.0;      // m, each link
  double mass = 1.0;        // kg, each particle
  double gravity = 9.81;    // m/s^2, along -y
  double angle_deg = 30.0;  // initial angle of the straight chain from the downward vertical
};

// Throws std::invalid_argument for links < 1 or non-positive length or mass.
std::string chain_model_text(const chain_options& options);

}  // namespace kinevo::mechanics
