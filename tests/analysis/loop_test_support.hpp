// Shared helpers of the loop analyser tests: a smooth input motion with known derivatives and
// central finite differences of an analyser's outputs along it (a second, independent method
// for the rates and accelerations).
#pragma once

#include <cmath>

#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis::test {

// value(t) = c0 + c1 t + c2 t^2 + c3 sin(t), with exact rate and acceleration.
struct smooth_motion {
  double c0, c1, c2, c3;
  motion_sample at(double t) const {
    return {t, c0 + c1 * t + c2 * t * t + c3 * std::sin(t), c1 + 2.0 * c2 * t + c3 * std::cos(t),
            2.0 * c2 - c3 * std::sin(t)};
  }
};

struct finite_differences {
  double rate;   // central difference of the output value
  double accel;  // central difference of the analyser's own rate
};

// Output `o` of `loop` differentiated numerically along `m` at t. Angle outputs are unwrapped
// (the difference of two values is taken modulo 2 pi).
inline finite_differences differentiate(const planar_loop& loop, const smooth_motion& m, double t,
                                        std::size_t o, bool angle) {
  constexpr double h = 1e-6;
  const loop_state lo = loop.state_at(m.at(t - h)), hi = loop.state_at(m.at(t + h));
  double dv = hi.outputs[o].value - lo.outputs[o].value;
  if (angle) dv = wrap_angle(dv);
  return {dv / (2.0 * h), (hi.outputs[o].rate - lo.outputs[o].rate) / (2.0 * h)};
}

}  // namespace kinevo::analysis::test
