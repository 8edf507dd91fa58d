// The input motion of a loop analysis: value, rate and acceleration of the driving angle or
// length at each time of a grid. Either an expression in t, differentiated exactly (GiNaC), or
// a sweep of the value at a constant rate.
#pragma once

#include <string>
#include <vector>

#include "kinevo/analysis/planar_loop.hpp"

namespace kinevo::analysis {

struct time_grid {
  double t_start = 0.0;
  double t_end = 1.0;
  double dt = 0.01;
  void validate() const;  // dt > 0, t_end >= t_start, at most max_motion_points points
  // t_start, t_start + dt, ..., the last point exactly t_end.
  std::vector<double> times() const;
};

// Expression motion: value(t) = `expression`, e.g. "3 + 0.5*sin(pi*t)^2".
struct expression_motion {
  std::string expression;
  time_grid grid;
  void validate() const;
};

// Sweep: value from `from` to `to` by `step` (the last point exactly `to`), at the constant
// `rate` (acceleration 0); t = (value - from) / rate.
struct sweep_motion {
  double from = 0.0;
  double to = 0.0;
  double step = 0.0;
  double rate = 1.0;
  void validate() const;
};

inline constexpr long long max_motion_points = 10'000'000;

// The samples of value(t) and its exact first and second derivatives. Throws io::input_error
// naming `where` when the expression does not parse, uses another name than t (and pi), or is
// not finite at a grid time.
std::vector<motion_sample> sample_motion(const expression_motion& m, const std::string& where);
std::vector<motion_sample> sample_motion(const sweep_motion& m);

}  // namespace kinevo::analysis
