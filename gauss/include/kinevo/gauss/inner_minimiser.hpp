// The seam between the multiplier loop of the "ga" solver and the minimiser of each inner
// problem (one range run): by default the island GA; a comparison (bench/) may hand the same
// run (objective, box, budget, start point, run index) to another minimiser, so that the two
// differ in the inner minimiser alone (docs/gauss.md, "Against gradient methods").
#pragma once

#include <functional>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/ga/termination.hpp"

namespace kinevo::gauss {

// Minimises `objective` over `box` within `limits` (the run's evaluation budget) and reports
// the best point and the evaluations it made, as ga::island_model::run does. settings carries
// the start point (the previous best, to be put into the initial population, or null) and the
// run index (to derive the run's random stream from).
using inner_minimiser =
    std::function<ga::run_result(const ga::problem& objective, const ga::search_box& box,
                                 const ga::termination& limits, const ga::run_settings& settings)>;

}  // namespace kinevo::gauss
