// Runs `kinevo optimize` as named stages: load the problem, plan the run (policies, preset),
// build and check the box, check the memory, build the island model, run (single, resumed or
// range runs), save the state on an interrupt, and assemble the self-reporting result.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "kinevo/ga/problem.hpp"
#include "kinevo/optimization/optimization_run.hpp"
#include "kinevo/optimization/optimize_options.hpp"

namespace kinevo::optimization {

// What a caller sees at every synchronisation point (on every rank).
struct progress_report {
  double fraction = -1.0;  // of the whole run in [0, 1]; negative: unknown
  int run = 0;             // range run, from 0
  long long generation = 0;
  long long evaluations = 0;
  double best_value = 0.0;
  // Total violation of the best so far when the islands compare feasibility (0: feasible).
  double best_violation = 0.0;

  // The progress line: "run 2 gen 140 evals 14100 best -6961.81 (infeasible by 0.03)".
  std::string text() const;
};

struct run_hooks {
  // Set (e.g. by a SIGINT handler) to stop after the current synchronisation interval.
  const std::atomic<bool>* interrupt = nullptr;
  // Called at every synchronisation point when set (a progress display).
  std::function<void(const progress_report&)> on_progress;
};

// Throws io::option_error (an option out of range or contradicting another, a run too large
// for the memory), io::input_error (an unreadable problem or checkpoint file),
// std::invalid_argument (options the GA refuses) and std::runtime_error (a non-finite
// objective value, naming the point; an unwritable checkpoint).
optimization_run run_optimization(const optimize_options& options, const run_hooks& hooks = {});

// The same run on the caller's objective instead of `function` or `problem_file` (which must be
// empty; `dim` is the objective's): the Python module's objectives. With the same options and an
// objective that returns the same numbers as a built-in test function, the result is the same
// bit for bit as the run on that function. The objective must be thread-safe when islands run on
// threads (ga::problem::evaluate); its exceptions propagate to the caller.
optimization_run run_optimization(const optimize_options& options, const ga::problem& objective,
                                  const run_hooks& hooks = {});

}  // namespace kinevo::optimization
