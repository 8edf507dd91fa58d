// The options of `kinevo synth fourbar|rssr|dyad|path|chebyshev`, bound to the library's
// requests (synthesis/linkages/synthesis_request.hpp); kept apart from cmd_synth.cpp, which
// runs the requests and prints their results.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/cli/report_output.hpp"
#include "kinevo/synthesis/linkages/chebyshev_points.hpp"
#include "kinevo/synthesis/linkages/synthesis_request.hpp"

namespace kinevo::cli {

// What every synth subcommand takes besides its own options.
struct synth_args : output_args {
  std::string animate;  // fourbar and path: the animation page
};

struct fourbar_args : synth_args {
  synthesis::fourbar_request request;
};

struct rssr_args : synth_args {
  synthesis::rssr_request request;
};

struct dyad_args : synth_args {
  synthesis::dyad_request request;
};

struct path_args : synth_args {
  synthesis::path_request request;
  std::vector<double> link_bounds, coupler_bounds, frame_bounds;  // "lo hi" as given
};

struct chebyshev_args : output_args {
  synthesis::chebyshev_options options;
};

// Each adds its subcommand to `sub` (kinevo synth) with its options bound to the arguments.
CLI::App* add_fourbar_command(CLI::App& sub, fourbar_args& fb);
CLI::App* add_rssr_command(CLI::App& sub, rssr_args& rs);
CLI::App* add_dyad_command(CLI::App& sub, dyad_args& dy);
CLI::App* add_path_command(CLI::App& sub, const std::shared_ptr<path_args>& pa);
CLI::App* add_chebyshev_command(CLI::App& sub, chebyshev_args& ch);

}  // namespace kinevo::cli
