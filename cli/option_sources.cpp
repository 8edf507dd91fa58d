#include "kinevo/cli/option_sources.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kinevo/optimization/config_file.hpp"

namespace kinevo::cli {

namespace {

// Applies one entry of the config file to its option.
void apply_config_entry(CLI::App& sub, const optimization::config_entry& e,
                        const std::string& command, config_origins& origins) {
  CLI::Option* opt = sub.get_option_no_throw("--" + e.key);
  if (opt == nullptr || e.key == "config") {
    throw io::input_error(
        fmt::format("{}: unknown option; keys are long option names of 'kinevo {}' without '--'",
                    e.at, command));
  }
  if (opt->count() > 0) return;  // the command line wins
  try {
    opt->add_result(e.values);
    opt->run_callback();
  } catch (const CLI::Error& err) {
    throw io::input_error(fmt::format("{}: {}", e.at, err.what()));
  }
  origins["--" + e.key] = e.at;
}

}  // namespace

void apply_config(CLI::App& sub, const std::string& path, const std::string& command,
                  config_origins& origins) {
  for (const auto& e : optimization::read_config_file(path)) {
    apply_config_entry(sub, e, command, origins);
  }
}

std::set<std::string> given_keys(const CLI::App& sub) {
  std::set<std::string> keys;
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->count() == 0) continue;
    std::string key = opt->get_single_name();  // the long name without "--"
    std::replace(key.begin(), key.end(), '-', '_');
    keys.insert(key);
  }
  return keys;
}

io::input_error option_input_error(const io::option_error& e, const config_origins& origins) {
  std::string name = "--" + e.field();
  std::replace(name.begin(), name.end(), '_', '-');
  if (const auto it = origins.find(name); it != origins.end()) {
    return io::input_error(fmt::format("{} ({}) {}", it->second, name, e.requirement()));
  }
  return io::input_error(fmt::format("{} {}", name, e.requirement()));
}

}  // namespace kinevo::cli
