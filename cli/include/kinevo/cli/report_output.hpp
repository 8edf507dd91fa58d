// What the subcommands that print a library result share: --json and -q/--quiet, and printing
// the result's own report (full_report() text, or to_json() with the files written added).
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::cli {

struct output_args {
  bool json = false;
  bool quiet = false;
  std::string output_dir;  // -o/--output-dir, added by each command with its own description
};

// Checks -o/--output-dir before the run (io::check_output_folder), so that an unusable folder
// costs no run: exit 2 naming the option and the folder.
inline void check_output_dir(const output_args& a) {
  if (a.output_dir.empty()) return;
  try {
    io::check_output_folder(a.output_dir);
  } catch (const io::output_error& e) {
    throw io::input_error(fmt::format("--output-dir: {}", e.what()));
  }
}

inline void add_output(CLI::App& app, output_args& a) {
  app.add_flag("--json", a.json, "Print one JSON object on stdout (nothing else)");
  app.add_flag("-q,--quiet", a.quiet, "Print nothing on success (files are still written)");
}

template <class Result>
void print(const Result& r, const output_args& a, const std::vector<std::string>& written) {
  if (a.json) {
    nlohmann::json j = r.to_json();
    j["files"] = written;
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}", r.full_report());
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  }
}

}  // namespace kinevo::cli
