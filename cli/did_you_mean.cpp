#include "kinevo/cli/did_you_mean.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace kinevo::cli {

int edit_distance(const std::string& a, const std::string& b) {
  // One row of the Wagner-Fischer table at a time.
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> close_names(const std::string& word, const std::vector<std::string>& known,
                                     int max_distance) {
  std::vector<std::pair<int, std::string>> hits;
  for (const auto& name : known) {
    const int d = edit_distance(word, name);
    if (d > 0 && d <= max_distance) hits.emplace_back(d, name);
  }
  std::sort(hits.begin(), hits.end());
  std::vector<std::string> names;
  for (auto& [d, name] : hits) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

namespace {

std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
  }
  return names;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

std::string suggestion_line(const std::string& word, const std::vector<std::string>& names) {
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "'" : " or '") + n + "'";
  return fmt::format("kinevo: unknown '{}': did you mean {}?\n", word, list);
}

}  // namespace

std::string did_you_mean(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* current = &app;
  std::string text;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) == 0) {
      word = word.substr(0, word.find('='));
      const auto known = long_options(*current);
      if (std::find(known.begin(), known.end(), word) != known.end()) continue;
      const auto names = close_names(word, known);
      if (!names.empty()) text += suggestion_line(word, names);
      continue;
    }
    if (word.empty() || word[0] == '-') continue;
    const auto subs = subcommand_names(*current);
    if (std::find(subs.begin(), subs.end(), word) != subs.end()) {
      current = current->get_subcommand(word);
      continue;
    }
    // Option values and positional arguments are words too: only one close to a subcommand
    // name is taken for a misspelling.
    const auto names = close_names(word, subs);
    if (!names.empty()) text += suggestion_line(word, names);
  }
  return text;
}

}  // namespace kinevo::cli
