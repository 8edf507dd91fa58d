// The GA solver's own options in mechanics' solver factory: make_solver("ga", o) reads them from
// o.registered["ga"] (the factory itself knows no islands or presets). The CLI exposes them as
// --islands, --threads, --seed, --preset and --tolerance.
#pragma once

#include <string>

#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::gauss {

struct ga_solver_options {
  int islands = 1;
  // Worker threads per process (0: one per island, at most the cores).
  int threads = 0;
  unsigned long long seed = 1;
  std::string preset = "default";  // gauss_ga_preset_names()
  // Stopping tolerance; the "thesis" preset keeps its own (it always makes its five runs).
  double tolerance = 1e-9;

  // Throws io::option_error naming the field: islands >= 1 (no silent clamp to 1), threads in
  // [0, 4096], tolerance > 0 and finite. An unknown preset is refused when the solver is made.
  void validate() const;
};

// The "ga" entry of o.registered, created with the defaults when absent.
ga_solver_options& ga_solver_options_of(mechanics::solver_options& o);
// A copy of it, the defaults when absent.
ga_solver_options ga_solver_options_of(const mechanics::solver_options& o);

}  // namespace kinevo::gauss
