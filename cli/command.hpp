// Subcommands register themselves: each cmd_*.cpp defines one static `command_registration`,
// so adding a subcommand never edits main.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace kinevo::cli {

// Called with the subcommand's CLI11 App to add its options; returns the function that runs it
// after parsing (its return value is the process exit status).
using command_setup = std::function<std::function<int()>(CLI::App& sub)>;

struct command_registration {
  // `order` sorts the help listing.
  command_registration(int order, std::string name, std::string description, command_setup setup);
};

// Exit statuses shared by all subcommands.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;      // computation failed (diverged, inconsistent, ...)
inline constexpr int exit_bad_input = 2;    // unusable input file or options
inline constexpr int exit_interrupted = 130;

}  // namespace kinevo::cli
