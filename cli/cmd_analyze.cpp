// kinevo analyze: analysers of given mechanisms. The kinds live in their own files and register
// as children of this command (cmd_analyze_loop.cpp: `analyze loop`, cmd_analyze_chain.cpp:
// `analyze chain`).
#include "kinevo/cli/command.hpp"

namespace kinevo::cli {

namespace {

const command_registration analyze_registration(
    35, "analyze",
    "Analyse a given mechanism: single-loop linkages and chains of them, spatial chains",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      // A parsed child runs instead of this command; reaching here means none was parsed.
      return []() { return exit_bad_input; };
    });

}  // namespace

}  // namespace kinevo::cli
