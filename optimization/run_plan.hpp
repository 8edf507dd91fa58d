// The policies that turn what the user asked for (optimize_options) into what the GA runs:
// the GAucsd starting point, the crossover/mutation defaults of binary and Gray genes, and the
// tuned preset with its budget split over the range runs. Contradictions between options are
// refused here, once the preset has filled in its values.
#pragma once

#include "ga/island_model.hpp"
#include "ga/options.hpp"
#include "ga/termination.hpp"
#include "optimization/optimize_options.hpp"

namespace kinevo::optimization {

struct run_plan {
  ga::ga_options ga;
  ga::island_options islands;
  // Limits of one run: with range runs each run gets these (the first first_run_budget times
  // them); the tuned preset shares the user's totals out over the runs.
  ga::termination per_run;
  range_settings range;
};

// Throws io::option_error naming the option that contradicts another (e.g. bits with real
// genes, resume with range runs, shrink without range runs, the tuned preset with binary genes).
run_plan make_run_plan(const optimize_options& o);
// The same for a problem with constraints (a problem file that has some): without --preset,
// the constrained preset applies.
run_plan make_run_plan(const optimize_options& o, bool constrained_problem);

// What optimize does with a problem file's constraints unless told (--constraints), and the
// range runs multipliers get when --range-runs is not given (their updates happen between runs).
inline constexpr ga::constraint_handling default_constraints = ga::constraint_handling::epsilon;
inline constexpr int default_multiplier_runs = 5;

}  // namespace kinevo::optimization
