// The SANLSU options of `kinevo optimize` (--method, --refine, --sanlsu-*, --start) and the
// printing of its reports, kept apart from cmd_optimize.cpp (the GA's options). The work is
// optimization/sanlsu_run.hpp's.
#pragma once

#include <CLI/CLI.hpp>

#include "kinevo/cli/option_sources.hpp"
#include "kinevo/optimization/optimization_run.hpp"
#include "kinevo/optimization/optimize_options.hpp"

namespace kinevo::cli {

struct report_format {
  bool json = false;
  bool quiet = false;
};

void add_sanlsu_options(CLI::App& sub, optimization::optimize_options& o);
// --method sanlsu: runs, prints and returns the exit status (1 when SANLSU did not converge to a
// minimum, with the message on stderr).
int run_sanlsu_method(const optimization::optimize_options& o, report_format f,
                      const config_origins& origins);
// --refine sanlsu after the GA: refines `ga`'s best, prints both, returns the exit status.
int refine_and_print(const optimization::optimize_options& o, optimization::optimization_run ga,
                     report_format f, const config_origins& origins);

}  // namespace kinevo::cli
