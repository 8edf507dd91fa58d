// The acceleration solvers' options, one set for every subcommand that solves (simulate,
// accel): the direct solvers' rank tolerance and the GA solver's islands, threads, seed, preset
// and tolerance.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "mechanics/solver_factory.hpp"

namespace kinevo::cli {

inline void add_solver_options(CLI::App& sub, mechanics::solver_options& o) {
  sub.add_option("--rank-tolerance", o.rank_tolerance, "Direct solvers: relative rank tolerance")
      ->capture_default_str();
  sub.add_option("--islands", o.islands, "GA solver: islands")->capture_default_str();
  sub.add_option("--threads", o.threads,
                 "GA solver: worker threads per process (0: one per island, at most the cores)")
      ->check(CLI::NonNegativeNumber);
  add_seed_option(sub, "--seed", o.seed, "GA solver: seed");
  sub.add_option("--preset", o.preset, "GA solver: preset")->capture_default_str();
  sub.add_option("--tolerance", o.tolerance, "Iterative solvers: stopping tolerance")
      ->capture_default_str();
}

}  // namespace kinevo::cli
