// Numbers as kinevo prints them in text reports and CSV files: never "-0" (a negative zero, or
// with a fixed number of decimals a tiny negative that rounds to zero, reads as a sign that
// means nothing), and angles in (-180, 180] degrees where a value is an angle of a joint or a
// body (470 deg is 110 deg).
#pragma once

#include <cmath>

namespace kinevo::io {

// x, or +0 when x is -0 ("{}" and "{:g}" print a negative zero as "-0").
inline double no_negative_zero(double x) {
  return x == 0.0 ? 0.0 : x;
}

// x, or +0 when x prints as zero with `decimals` digits after the point ("{:.6f}" prints
// -1e-9 as "-0.000000").
inline double no_negative_zero(double x, int decimals) {
  return std::fabs(x) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : x;
}

// An angle in degrees brought into (-180, 180].
inline double degrees_in_half_turn(double degrees) {
  if (!std::isfinite(degrees)) return degrees;
  double w = std::remainder(degrees, 360.0);  // in [-180, 180]
  if (w <= -180.0) w += 360.0;
  return no_negative_zero(w);
}

}  // namespace kinevo::io
