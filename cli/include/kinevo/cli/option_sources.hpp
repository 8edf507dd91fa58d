// Where a subcommand's options come from: the command line, a TOML config file (keys are the
// long option names) and the library's enum parsers; and how an option error is named back to
// the user (the option as written, or the config file's line and key).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "kinevo/io/errors.hpp"

namespace kinevo::cli {

// Where an option's value came from when it was read from the config file ("FILE:LINE"), keyed
// by the long option name ("--population"), so that a value error names the file and line.
using config_origins = std::map<std::string, std::string>;

// An enum option parsed by the library's parse function; an unknown name is refused at parse
// time with the library's option_error, after the option's name (it lists the valid names).
template <class Enum, class Parse>
CLI::Option* add_enum_option(CLI::App& sub, const std::string& name, Enum& field, Parse parse,
                             const std::string& description) {
  CLI::Option* opt = sub.add_option_function<std::string>(
      name, [&field, parse](const std::string& text) { field = parse(text); }, description);
  opt->check(CLI::Validator(
      [parse](std::string& text) -> std::string {
        try {
          (void)parse(text);
        } catch (const io::option_error& e) {
          return e.requirement();
        }
        return {};
      },
      "NAME"));
  return opt;
}

// CLI11 (2.1) reads config files for the main app only, so a subcommand applies its TOML file
// (optimization/config_file.hpp) itself; the command line wins over the file. `command` names
// the subcommand in the message for an unknown key.
void apply_config(CLI::App& sub, const std::string& path, const std::string& command,
                  config_origins& origins);

// The keys (long names with '_' for '-') of every option given on the command line or in the
// config file.
std::set<std::string> given_keys(const CLI::App& sub);

// An option error named as the user wrote the option: "--name", or "FILE:LINE (--name)".
io::input_error option_input_error(const io::option_error& e, const config_origins& origins);

}  // namespace kinevo::cli
