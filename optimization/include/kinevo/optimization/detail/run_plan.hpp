// The policies that turn what the user asked for (optimize_options) into what the GA runs:
// the GAucsd starting point, the crossover/mutation defaults of binary and Gray genes, and the
// tuned preset with its budget split over the range runs. Contradictions between options are
// refused here, once the preset has filled in its values.
#pragma once

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/termination.hpp"
#include "kinevo/optimization/optimize_options.hpp"

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
// The constraints of the problem, which choose defaults: a problem file with constraints runs
// the constrained preset unless --preset is given.
struct constraint_counts {
  int inequalities = 0;
  int equalities = 0;
  bool any() const { return inequalities + equalities > 0; }
};
run_plan make_run_plan(const optimize_options& o, const constraint_counts& constraints);

// What optimize does with a problem's constraints unless told (--constraints): Deb's
// feasibility rules when every constraint is an inequality, the epsilon level when there are
// equalities (measured on CEC 2006, docs/constrained.md: feasibility rules alone stall on the
// equality problems, the epsilon level lets DE collapse outside narrow inequality regions).
ga::constraint_handling default_constraints(const constraint_counts& constraints);
// Range runs multipliers get when --range-runs is not given (their updates happen between
// runs); the limits are then totals shared out over them.
inline constexpr int default_multiplier_runs = 5;

}  // namespace kinevo::optimization
