// The options of `kinevo optimize` (about 70, in --help sections), bound to the library's
// optimization::optimize_options and the run's files; kept apart from cmd_optimize.cpp, which
// runs and prints.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "kinevo/cli/option_sources.hpp"
#include "kinevo/optimization/optimization_run.hpp"
#include "kinevo/optimization/optimize_options.hpp"

namespace kinevo::cli {

struct optimize_cli {
  optimization::optimize_options options;
  optimization::run_files files;
  std::string config;
  bool json = false;
  bool quiet = false;
  bool print_hex = false;
  config_origins origins;
};

// Adds every option of `kinevo optimize` to `sub`, bound to `c`, in --help sections.
void add_optimize_options(CLI::App& sub, optimize_cli& c);

}  // namespace kinevo::cli
