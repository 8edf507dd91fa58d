// The number of steps of a time grid t_k = t_start + k dt that ends exactly at t_end (the last
// step shortened), shared by the simulation, the kinematic analysis and the loop analysers.
// A span shorter than dt is one (short) step, never zero: with zero steps the loops that stop
// at "k == steps and t == t_end" never met t_end and ran for ever (`simulate --t-end 1e-12
// --dt 1e-3`, found by an independent fuzzing campaign).
#pragma once

#include <cmath>

namespace kinevo {

// The most rows a grid may give (simulate's records, kinematics, the loop analysers): a run
// keeps a row per grid point in memory (about 600 bytes for a small model), so 10^7 rows are a
// few GB. A longer span or a smaller dt is refused before the run, naming this limit.
inline constexpr double max_grid_steps = 1e7;
// The most steps of one simulation, whatever it records (--record-every keeps the rows few):
// 10^9 RK4 steps are hours even for a small model.
inline constexpr double max_simulation_steps = 1e9;

// ceil(span / dt) as a double (a relative slack of 1e-9 so that 1.0 / 0.1 is 10 steps, not 11),
// at least 1 when span > 0 and 0 when span == 0; +inf when the quotient overflows. Compare it
// with a limit before converting it to an integer.
inline double grid_steps(double span, double dt) {
  if (!(span > 0.0)) return 0.0;
  const double n = std::ceil(span / dt - 1e-9);
  return n < 1.0 ? 1.0 : n;
}

// grid_steps() as an integer; only for spans already checked against a limit.
inline long long grid_intervals(double span, double dt) {
  return static_cast<long long>(grid_steps(span, dt));
}

}  // namespace kinevo
