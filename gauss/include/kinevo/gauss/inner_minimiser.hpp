// The seam between the multiplier loop of the "ga" solver and the minimiser of each inner
// problem (one range run): by default the island GA; a comparison (bench/) may hand the same
// run (objective, box, budget, start point, run index) to another minimiser, so that the two
// differ in the inner minimiser alone (docs/gauss.md, "Against gradient methods").
#pragma once

#include "kinevo/ga/range_runs.hpp"

namespace kinevo::gauss {

// Minimises `objective` over `box` within `limits` (the run's evaluation budget) and reports
// the best point and the evaluations it made, as ga::island_model::run does. settings carries
// the start point (the previous best, to be put into the initial population, or null) and the
// run index (to derive the run's random stream from).
using inner_minimiser = ga::run_minimiser;

}  // namespace kinevo::gauss
