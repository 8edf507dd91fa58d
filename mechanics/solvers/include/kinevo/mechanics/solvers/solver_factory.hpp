// Acceleration solvers by name, for the CLI and the studies. The built-in direct solvers are
// "lm", "uk", "gigsp", "sl" and "kv"; solvers of higher modules (the Gauss'-principle GA solver
// "ga", gauss/register_ga_solver.hpp) are added explicitly through register_solver().
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

// Options for every solver; a solver reads the fields it understands and ignores the rest.
struct solver_options {
  // Direct solvers: a row of A is redundant when its remainder after orthogonalisation against
  // the earlier rows is below `rank_tolerance` times its own norm (GIGSP, relative to each row)
  // or a singular value is below rank_tolerance * sigma_max (U-K, S-L, K-V, LM).
  double rank_tolerance = 1e-9;
  // A redundant row whose right-hand side remainder exceeds `consistency_tolerance` times
  // (1 + |b_i|) is inconsistent.
  double consistency_tolerance = 1e-7;
  // A row whose remainder is below degenerate_tolerance times the largest row norm of A L^-T
  // is treated as a zero row (degenerate configurations, e.g. the five-bar at th = 0 or pi).
  double degenerate_tolerance = 1e-8;
  // Exploit the sparsity of A (chains) when the dense flop counts would lose; dense otherwise.
  bool allow_sparse = true;

  // Pass-through knobs of iterative solvers (the GA solver "ga"); the CLI exposes them as
  // --islands, --threads, --seed, --preset, --tolerance without knowing the GA.
  int islands = 1;
  // GIGSP runs its dense row process and A L^-T on `threads` threads when > 1 (0 and 1:
  // serial); the GA solver takes it as worker threads per process (0: one per island, at most
  // the cores).
  int threads = 0;
  unsigned long long seed = 1;
  std::string preset = "default";
  double tolerance = 1e-9;  // stopping tolerance of iterative solvers (the ga preset's default)

  // Throws io::option_error naming the field and its allowed range: the tolerances finite, rank
  // and consistency ones in (0, 1) and > 0 (a NaN or huge rank tolerance would silently call
  // every constraint redundant), islands >= 1, threads in [0, 4096]. make_solver calls it.
  void validate() const;
};

using solver_factory_fn =
    std::function<std::unique_ptr<acceleration_solver>(const solver_options&)>;

// Registration of solvers defined in higher modules, called explicitly by the program (not from
// a static initialiser: a static library drops object files nothing references).
// Returns true; a second registration of the same name replaces the first.
bool register_solver(const std::string& name, const std::string& description,
                     solver_factory_fn factory);

// A new solver. Throws io::input_error for an unknown name, listing the available ones; for
// "ga" before it is registered the message says it is not available in this build.
std::unique_ptr<acceleration_solver> make_solver(const std::string& name,
                                                 const solver_options& options = {});

bool solver_available(const std::string& name);

// The names make_solver accepts now, built-ins first.
std::vector<std::string> solver_names();
// The five direct solvers, in the order of the dissertation's Table 4.1 comparison.
std::vector<std::string> direct_solver_names();
std::string solver_description(const std::string& name);

}  // namespace kinevo::mechanics
