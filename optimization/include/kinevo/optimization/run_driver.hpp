// Runs `kinevo optimize` as named stages: load the problem, plan the run (policies, preset),
// build and check the box, check the memory, build the island model, run (single, resumed or
// range runs), save the state on an interrupt, and assemble the self-reporting result.
#pragma once

#include <string>

#include "kinevo/core/run_context.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/optimization/optimization_run.hpp"
#include "kinevo/optimization/optimize_options.hpp"

namespace kinevo::optimization {

// The run context: context.interrupt stops the run after the current synchronisation interval;
// context.on_progress is called at every synchronisation point (on every rank) with stage the
// range run (from 0), step the generation, the evaluations, and as text the progress line
// "run 2 gen 140 evals 14100 best -6961.81 (infeasible by 0.03)". The islands agree on the
// interrupt over MPI themselves (ga::island_model); is_root comes from the island model.
// Throws io::option_error (an option out of range or contradicting another, a run too large
// for the memory), io::input_error (an unreadable problem or checkpoint file),
// and ga::evaluation_error (a non-finite objective value, naming the point; an island that
// failed on another rank); io::option_error also for options the GA refuses.
optimization_run run_optimization(const optimize_options& options,
                                  const core::run_context& context = {});

// The same run on the caller's objective instead of `function` or `problem_file` (which must be
// empty; `dim` is the objective's): the Python module's objectives. With the same options and an
// objective that returns the same numbers as a built-in test function, the result is the same
// bit for bit as the run on that function. The objective must be thread-safe when islands run on
// threads (ga::problem::evaluate); its exceptions propagate to the caller.
optimization_run run_optimization(const optimize_options& options, const ga::problem& objective,
                                  const core::run_context& context = {});

}  // namespace kinevo::optimization
