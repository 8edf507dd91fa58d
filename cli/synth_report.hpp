// How the synth subcommands print a result that reports itself: one JSON object with the files
// written (--json), or the text report and the files' names, or nothing (--quiet).
#pragma once

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kinevo::cli {

template <class Result>
void print_synth_result(const Result& r, bool json, bool quiet,
                        const std::vector<std::string>& written) {
  if (json) {
    nlohmann::json j = r.to_json();
    j["files"] = written;
    fmt::print("{}\n", j.dump());
  } else if (!quiet) {
    fmt::print("{}", r.full_report());
    for (const auto& w : written) fmt::print("wrote {}\n", w);
  }
}

}  // namespace kinevo::cli
