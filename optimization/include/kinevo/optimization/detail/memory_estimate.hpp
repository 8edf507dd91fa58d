// An up-front estimate of the memory a run needs, so that a population of 1e9 or a million
// islands is refused with a named error instead of ending in std::bad_alloc midway.
// The limit (docs/ga.md, "Limits") is half of the physical memory.
#pragma once

#include "kinevo/optimization/detail/run_plan.hpp"

namespace kinevo::optimization {

struct memory_estimate {
  double populations = 0.0;  // every island's genomes, points, values and scratch
  double history = 0.0;      // the per-generation records (with a log or a chart)
  double rotation = 0.0;     // rotated range runs: the axes of every run (dim x dim each)
  double total() const { return populations + history + rotation; }
};

memory_estimate estimate_memory(const run_plan& plan, int dim, bool record_history);

// Half of the physical memory (sysconf), or 4 GiB when it cannot be read.
double memory_limit_bytes();

// Throws io::option_error naming the option whose size dominates the estimate (population,
// islands, generations, dim) when the estimate exceeds `limit_bytes`.
void check_memory(const memory_estimate& m, const run_plan& plan, int dim, double limit_bytes);

}  // namespace kinevo::optimization
