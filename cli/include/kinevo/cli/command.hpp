// Subcommands register themselves: each cmd_*.cpp defines one static `command_registration`,
// so adding a subcommand never edits main.cpp.
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "kinevo/core/outcome.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::cli {

// Called with the subcommand's CLI11 App to add its options; returns the function that runs it
// after parsing (its return value is the process exit status).
using command_setup = std::function<std::function<int()>(CLI::App& sub)>;

struct command_registration {
  // `order` sorts the help listing. A non-empty `parent` makes this a subcommand of that
  // registered command (`kinevo synth cam` lives in its own file, cmd_synth_cam.cpp); a parsed
  // child runs instead of its parent.
  command_registration(int order, std::string name, std::string description, command_setup setup,
                       std::string parent = {});
};

// An output path checked before a run (io::check_writable), so that an unusable one costs no
// run: exit 2 naming the option ("--out: ...").
inline void check_output_path(const std::string& path, const char* option) {
  if (path.empty()) return;
  try {
    io::check_writable(path);
  } catch (const io::output_error& e) {
    throw io::input_error(fmt::format("{}: {}", option, e.what()));
  }
}

// Exit statuses shared by all subcommands, documented once in core/outcome.hpp:
// core::exit_status(result.summary) gives a run's. exit_failure: the computation failed
// (diverged, inconsistent, ...); exit_bad_input: unusable input file or options.
using core::exit_bad_input;
using core::exit_failure;
using core::exit_interrupted;
using core::exit_ok;

// Runs an options struct's validate() and rethrows its io::option_error as io::input_error (exit
// 2) naming the command-line option: "--" and the field with '-' for '_', unless `renames` maps
// the field to another option (e.g. {"baumgarte_alpha", "--alpha"}).
template <class Options>
void validate_options(const Options& options,
                      std::initializer_list<std::pair<const char*, const char*>> renames = {}) {
  try {
    options.validate();
  } catch (const io::option_error& e) {
    std::string name = "--" + e.field();
    for (char& c : name) c = c == '_' ? '-' : c;
    for (const auto& [field, option] : renames) {
      if (e.field() == field) name = option;
    }
    throw io::input_error(fmt::format("{} {}", name, e.requirement()));
  }
}

// A seed: decimal digits only, in [0, 2^64 - 1]. CLI11's own unsigned conversion wraps "-1"
// and saturates "1e23" or 2^64 to 2^64 - 1 without a word, so seeds are parsed here.
inline std::optional<std::uint64_t> parse_seed(const std::string& text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return v;
}

// Adds a seed option that refuses anything but an integer in [0, 2^64 - 1] (exit 2, naming the
// option and the range). `seed` must outlive the parse.
template <class Unsigned>
CLI::Option* add_seed_option(CLI::App& app, const std::string& name, Unsigned& seed,
                             const std::string& description) {
  static_assert(sizeof(Unsigned) == sizeof(std::uint64_t));
  CLI::Option* opt = app.add_option_function<std::string>(
      name,
      [&seed](const std::string& text) { seed = static_cast<Unsigned>(parse_seed(text).value()); },
      description);
  opt->check(CLI::Validator(
      [](std::string& text) -> std::string {
        if (parse_seed(text)) return {};
        return fmt::format("must be an integer in [0, 18446744073709551615] (got '{}')", text);
      },
      "UINT64"));
  opt->default_str(std::to_string(seed));
  return opt;
}

}  // namespace kinevo::cli
