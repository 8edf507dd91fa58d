// No option in the help or the documentation that does not exist (docs/cli.md): every `--name`
// that README.md and docs/*.md write after `kinevo SUBCOMMAND` (or in a code span that starts
// with a subcommand, `simulate --out`) is an option of that subcommand (of one of its children
// when the line names only the parent, `study --out`); every other `--name` in them is an option
// of some subcommand or of another program the documents name (cmake, ctest, mpiexec, Chromium,
// the benchmark and fuzz programs); and an option a --help text mentions is one of its command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>
// GCC 12 at -O1 with the sanitizers (the CI's second build) warns that std::regex's internal
// std::function "may be used uninitialized": a known false positive inside libstdc++.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

struct command_help {
  std::set<std::string> options;       // the long names of its options
  std::vector<std::string> children;   // its subcommands
  std::vector<std::string> mentioned;  // --names its descriptions mention
};

const std::regex& long_option() {
  static const std::regex r("(^|[^\\w-])(--[a-z][a-z0-9-]*)");
  return r;
}

std::vector<std::string> long_options_in(const std::string& text) {
  std::vector<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), long_option()), end; it != end; ++it) {
    names.push_back((*it)[2]);
  }
  return names;
}

// "  -o,--out,--output TEXT=x  description": the names before the first space of the entry.
command_help parse_help(const std::string& text) {
  command_help h;
  std::string section;
  for (const auto& l : lines_of(text)) {
    if (!l.empty() && l[0] != ' ') {
      section = l;
      continue;
    }
    if (l.rfind("  -", 0) == 0) {
      const std::string names = l.substr(2, l.find(' ', 2) - 2);
      std::size_t start = 0;
      while (start < names.size()) {
        std::size_t comma = names.find(',', start);
        if (comma == std::string::npos) comma = names.size();
        std::string name = names.substr(start, comma - start);
        name = name.substr(0, name.find('{'));  // "--no-refine{false}"
        if (name.rfind("--", 0) == 0) h.options.insert(name);
        start = comma + 1;
      }
      for (auto& m : long_options_in(l.substr(2 + names.size()))) h.mentioned.push_back(m);
    } else if (section == "Subcommands:" && l.size() > 2 && l[2] != ' ') {
      h.children.push_back(l.substr(2, l.find(' ', 2) - 2));
    } else {
      for (auto& m : long_options_in(l)) h.mentioned.push_back(m);
    }
  }
  return h;
}

using help_tree = std::map<std::string, command_help>;  // "" is kinevo, "synth fourbar", ...

void read_help(const std::string& path, help_tree& tree) {
  const auto r = run_kinevo(path + " --help");
  ASSERT_EQ(r.status, 0) << path;
  tree[path] = parse_help(r.out);
  for (const auto& c : tree[path].children) read_help(path.empty() ? c : path + " " + c, tree);
}

// The options a line naming `path` may use: its own, or those of the commands under it.
std::set<std::string> options_under(const help_tree& tree, const std::string& path) {
  std::set<std::string> all = tree.at(path).options;
  for (const auto& c : tree.at(path).children) {
    const auto more = options_under(tree, path.empty() ? c : path + " " + c);
    all.insert(more.begin(), more.end());
  }
  return all;
}

// Options of other programs that the documents name: Chromium (docs/animation.md), CMake and
// CTest, mpiexec, setup.sh, the benchmark programs and scripts (bench/) and the fuzz driver.
const std::set<std::string> other_programs_options = {"--headless",
                                                      "--use-angle",
                                                      "--enable-unsafe-swiftshader",
                                                      "--hide-scrollbars",
                                                      "--window-size",
                                                      "--screenshot",
                                                      "--mode",
                                                      "--replay",
                                                      "--targets",
                                                      "--no-sandbox",
                                                      "--disable-gpu",
                                                      "--disable-quic",
                                                      "--no-first-run",
                                                      "--disable-background-networking",
                                                      "--disable-component-update",
                                                      "--disable-sync",
                                                      "--user-data-dir",
                                                      "--dump-dom",
                                                      "--virtual-time-budget",
                                                      "--allow-file-access-from-files",
                                                      "--graphviz",
                                                      "--build",
                                                      "--install",
                                                      "--prefix",
                                                      "--test-dir",
                                                      "--output-on-failure",
                                                      "--bench",
                                                      "--python",
                                                      "--target",
                                                      "--allow-run-as-root",
                                                      "--oversubscribe",
                                                      "--reps",
                                                      "--stat",
                                                      "--sizes",
                                                      "--block",
                                                      "--steps",
                                                      "--benchmark",
                                                      "--csv",
                                                      "--label",
                                                      "--jobs",
                                                      "--problems",
                                                      "--dir",
                                                      "--seeds",
                                                      "--budgets",
                                                      "--corpus",
                                                      "--count",
                                                      "--write",
                                                      "--momentum",          // bench_gauss_scale
                                                      "--carry-population",  // bench_gauss_scale
                                                      "--pop-per-n",
                                                      "--margin",
                                                      "--no-gradients",  // bench_gauss_scale
                                                      "--cold-only",
                                                      "--planar",              // bench_gauss_scale
                                                      "--migrations-per-run",  // bench_gauss_scale
                                                      "--weight",
                                                      "--trace",      // bench_gauss_scale
                                                      "--snapshots",  // bench_gauss_scale
                                                      "--max-runs"};  // bench_gauss_scale

// Not options: docs/cli.md shows what a misspelt one prints, docs/reliability.md writes "--k" for
// any config key.
const std::set<std::string> deliberate_misspellings = {"--t-edn", "--k"};

struct doc_line {
  std::string file;
  int number;
  std::string text;
};

std::vector<doc_line> documentation_lines() {
  const std::filesystem::path root = std::filesystem::path(KINEVO_EXAMPLES).parent_path();
  std::vector<std::filesystem::path> files = {root / "README.md"};
  for (const auto& e : std::filesystem::directory_iterator(root / "docs")) {
    if (e.path().extension() == ".md") files.push_back(e.path());
  }
  std::vector<doc_line> lines;
  for (const auto& f : files) {
    int n = 0;
    for (const auto& l : lines_of(read_text(f))) {
      lines.push_back({f.filename().string(), ++n, l});
    }
  }
  return lines;
}

TEST(CliConventions, EveryOptionInTheDocsAndHelpExists) {
  help_tree tree;
  read_help("", tree);
  ASSERT_GT(tree.size(), 15u);
  const std::set<std::string> every_option = options_under(tree, "");
  for (const auto& [path, help] : tree) {
    for (const auto& m : help.mentioned) {
      EXPECT_TRUE(help.options.count(m) > 0 || (path == "animate" && m == "--out"))
          << "kinevo " << path << " --help mentions " << m << ", not one of its options";
    }
  }
  // "kinevo synth fourbar ...", or "`simulate ...": the subcommand words, then the rest up to
  // the end of the code span or table cell.
  const std::regex command(
      "(kinevo|`(?!kinevo|build/kinevo))((?: +|)[a-z][a-z0-9-]*(?: +[a-z][a-z0-9-]*)*)([^`|]*)");
  int checked = 0;
  for (const auto& line : documentation_lines()) {
    const std::string& text = line.text;
    std::set<std::size_t> in_command;  // positions of the --names checked against a command
    // Every place a command may start (matches may overlap: "` and build/kinevo optimize").
    for (std::size_t at = 0; at < text.size(); ++at) {
      std::smatch m;
      const auto from = text.begin() + static_cast<std::ptrdiff_t>(at);
      if (!std::regex_search(from, text.end(), m, command,
                             std::regex_constants::match_continuous)) {
        continue;
      }
      std::istringstream words(m[2].str());
      std::string path;
      for (std::string w; words >> w;) {
        const auto& children = tree.at(path).children;
        if (std::find(children.begin(), children.end(), w) == children.end()) break;
        path = path.empty() ? w : path + " " + w;
      }
      if (path.empty()) continue;
      const std::set<std::string> allowed = options_under(tree, path);
      const std::string span = m[0].str();
      for (std::sregex_iterator o(span.begin(), span.end(), long_option()), end; o != end; ++o) {
        const std::string name = (*o)[2];
        in_command.insert(at + static_cast<std::size_t>(o->position(2)));
        ++checked;
        if (deliberate_misspellings.count(name) > 0) continue;
        EXPECT_TRUE(allowed.count(name) > 0)
            << line.file << ":" << line.number << ": kinevo " << path << " has no " << name;
      }
    }
    for (std::sregex_iterator o(text.begin(), text.end(), long_option()), end; o != end; ++o) {
      const std::string name = (*o)[2];
      if (in_command.count(static_cast<std::size_t>(o->position(2))) > 0) continue;
      if (deliberate_misspellings.count(name) > 0 || other_programs_options.count(name) > 0) {
        continue;
      }
      EXPECT_TRUE(every_option.count(name) > 0)
          << line.file << ":" << line.number << ": no subcommand has " << name;
    }
  }
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace kinevo::test
