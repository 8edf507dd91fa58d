#include "kinevo/analysis/planar_loop.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "kinevo/io/errors.hpp"

namespace kinevo::analysis {

const char* to_string(loop_status s) {
  switch (s) {
    case loop_status::ok:
      return "ok";
    case loop_status::out_of_range:
      return "out_of_range";
    case loop_status::dead_point:
      return "dead_point";
    case loop_status::no_input:
      return "no_input";
    case loop_status::non_finite:
      return "non_finite";
  }
  return "unknown";
}

kinematic_value implicit_motion(double y, const implicit_partials& f, const motion_sample& x) {
  const double d1 = -f.fx / f.fy;                                          // eq. (16)
  const double d2 = -(f.fxx + 2.0 * f.fxy * d1 + f.fyy * d1 * d1) / f.fy;  // eq. (17), corrected
  // Chain rule, eqs. (19)-(20): ydot = y' xdot, yddot = y'' xdot^2 + y' xddot.
  return {y, d1 * x.rate, d2 * x.rate * x.rate + d1 * x.accel};
}

void validate_branch(int branch) {
  if (branch != 1 && branch != -1) {
    throw io::option_error("branch", fmt::format("must be 1 or -1 (got {})", branch));
  }
}

double wrap_angle(double a) {
  const double two_pi = 2.0 * std::numbers::pi;
  double w = std::remainder(a, two_pi);  // in [-pi, pi]
  if (w <= -std::numbers::pi) w += two_pi;
  return w;
}

}  // namespace kinevo::analysis
