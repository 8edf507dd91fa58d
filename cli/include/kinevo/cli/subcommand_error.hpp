// kinevo's own message for a command line that names no subcommand where one is needed, or a
// word that is not one (instead of CLI11's "A subcommand is required"), with a did-you-mean.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace kinevo::cli {

// Follows the subcommands named in argv (after the program name; words starting with '-' are
// skipped). When the last one reached has subcommands of its own and the next word is none of
// them, or there is no next word, returns the message, e.g.
//   "kinevo synth: a subcommand is required: one of fourbar, rssr, ..."
//   "kinevo: unknown subcommand 'simulat': did you mean 'simulate'?"
// Otherwise (the line reaches a command that runs) returns nothing.
std::optional<std::string> subcommand_error(const CLI::App& app, int argc, const char* const* argv);

}  // namespace kinevo::cli
