// When a GA run stops. Every criterion is optional; the first one met ends the run.
// Generation and evaluation limits are exact. Target, stall, wall time and interrupt are checked
// at synchronisation points (every generation with one island, every `migration_interval`
// generations with several), so that all islands stop at the same generation in every transport.
// A generation is about `population` evaluations per island under every generation model (g3:
// ga_options::family_steps()), so these checks come every few hundred or thousand evaluations.
#pragma once

#include <atomic>
#include <limits>
#include <string>

namespace kinevo::ga {

struct termination {
  // Generations after the initial population; 0 means no limit (negative limits are refused).
  long long max_generations = 1000;
  // Total objective evaluations over all islands; a generation that would exceed it is not
  // started. 0 means no limit.
  long long max_evaluations = 0;
  // Stop as soon as the best value is <= target_value.
  double target_value = -std::numeric_limits<double>::infinity();
  // Stop when the best value has not improved by more than stall_tolerance for
  // stall_generations generations; stall_generations = 0 disables it.
  double stall_tolerance = 0.0;
  long long stall_generations = 0;
  // Wall-clock limit in seconds; 0 disables it. (Not reproducible, by nature.)
  double max_seconds = 0.0;
  // Set to stop at the next synchronisation point; may be null. &io::interrupt_flag()
  // (io/interrupt.hpp) is raised by SIGINT and SIGTERM; under MPI every rank stops alike.
  const std::atomic<bool>* interrupt = nullptr;

  // Throws io::option_error (a std::invalid_argument) naming the field: a negative limit, NaN
  // target, negative or non-finite stall tolerance, NaN or infinite wall time, or no limit at
  // all (the run would never end).
  void validate() const;
};

enum class stop_reason { generations, evaluations, target, stall, wall_time, interrupted };
std::string to_string(stop_reason r);
stop_reason parse_stop_reason(const std::string& name);  // throws std::invalid_argument

}  // namespace kinevo::ga
