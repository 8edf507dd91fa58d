// The acceleration solvers' options, one set for every subcommand that solves (simulate,
// accel): the direct solvers' rank tolerance, the threads of GIGSP and of the GA solver, and the
// GA solver's islands, seed, preset and tolerance.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <stdexcept>
#include <string>

#include "kinevo/cli/command.hpp"
#include "kinevo/gauss/ga_solver_options.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::cli {

inline void add_solver_options(CLI::App& sub, mechanics::solver_options& o) {
  // The GA solver's options live in its own entry (the factory knows no islands or presets).
  gauss::ga_solver_options& ga = gauss::ga_solver_options_of(o);
  sub.add_option("--rank-tolerance", o.direct.rank_tolerance,
                 "Direct solvers: relative rank tolerance")
      ->capture_default_str();
  sub.add_option("--islands", ga.islands, "GA solver: islands")->capture_default_str();
  // One value for both: GIGSP's threads and the GA solver's.
  sub.add_option_function<int>(
         "--threads",
         [&o, &ga](const int& threads) {
           o.direct.threads = threads;
           ga.threads = threads;
         },
         "Threads: gigsp's dense Gram-Schmidt sweep and A L^-T (0, 1: serial); GA "
         "solver: worker threads per process (0: one per island, at most the cores)")
      ->check(CLI::Range(0, 4096));
  add_seed_option(sub, "--seed", ga.seed, "GA solver: seed");
  std::string presets;
  for (const auto& name : gauss::gauss_ga_preset_names()) {
    presets += (presets.empty() ? "" : ", ") + name;
  }
  sub.add_option("--preset", ga.preset, "GA solver: preset, one of " + presets)
      ->capture_default_str();
  sub.add_option("--tolerance", ga.tolerance, "Iterative solvers: stopping tolerance")
      ->capture_default_str();
}

// A solver's own option error as the user's input error (exit 2): an unknown GA preset names
// --preset and the preset as given, any other names `where` (the option that chose the solver).
inline io::input_error solver_input_error(const io::option_error& e,
                                          const mechanics::solver_options& options,
                                          const std::string& where) {
  if (e.field() == "preset") {
    return io::input_error(
        fmt::format("--preset {}: {}", gauss::ga_solver_options_of(options).preset, e.what()));
  }
  return io::input_error(fmt::format("{}: {}", where, e.what()));
}

inline std::unique_ptr<mechanics::acceleration_solver> make_solver_for(
    const std::string& name, const mechanics::solver_options& options, const char* option) {
  try {
    return mechanics::make_solver(name, options);
  } catch (const io::option_error& e) {
    throw solver_input_error(e, options, fmt::format("{} {}", option, name));
  }
}

}  // namespace kinevo::cli
