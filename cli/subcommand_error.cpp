#include "kinevo/cli/subcommand_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "kinevo/cli/did_you_mean.hpp"

namespace kinevo::cli {

namespace {

std::vector<std::string> child_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

// "a, b or c"
std::string listed(const std::vector<std::string>& names, const char* last_joint) {
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) s += i + 1 == names.size() ? last_joint : ", ";
    s += names[i];
  }
  return s;
}

}  // namespace

std::optional<std::string> subcommand_error(const CLI::App& app, int argc,
                                            const char* const* argv) {
  const CLI::App* current = &app;
  std::string path = "kinevo";
  for (int i = 1; i <= argc; ++i) {
    const auto names = child_names(*current);
    if (names.empty()) return std::nullopt;  // a command that runs: its own errors apply
    if (i == argc) {
      return fmt::format("{}: a subcommand is required: one of {} (see {} --help)", path,
                         listed(names, " or "), path);
    }
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    if (std::find(names.begin(), names.end(), word) != names.end()) {
      current = current->get_subcommand(word);
      path += " " + word;
      continue;
    }
    const auto close = close_names(word, names);
    if (!close.empty()) {
      std::vector<std::string> quoted;
      for (const auto& n : close) quoted.push_back("'" + n + "'");
      return fmt::format("{}: unknown subcommand '{}': did you mean {}?", path, word,
                         listed(quoted, " or "));
    }
    return fmt::format("{}: unknown subcommand '{}': the subcommands are {} (see {} --help)", path,
                       word, listed(names, " and "), path);
  }
  return std::nullopt;
}

}  // namespace kinevo::cli
