// Conventions every subcommand follows (docs/cli.md): each option and subcommand in --help has a
// description, a misspelt subcommand or option gets a "did you mean", --version prints the
// project's version, and a folder of outputs is -o/--output-dir.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

// CLI11 2.x writes an entry as "  NAME" padded to column 30 and the description from there, or,
// when NAME reaches column 30, the description on the next line after 30 spaces.
constexpr std::size_t description_column = 30;

bool is_entry(const std::string& line) {
  return line.size() > 2 && line.compare(0, 2, "  ") == 0 && line[2] != ' ';
}

bool has_description(const std::vector<std::string>& lines, std::size_t i) {
  const std::string& l = lines[i];
  if (l.size() > description_column && l[description_column - 1] == ' ' &&
      l[description_column] != ' ') {
    return true;
  }
  if (i + 1 < lines.size()) {
    const std::string& next = lines[i + 1];
    return next.size() > description_column && next.find_first_not_of(' ') == description_column;
  }
  return false;
}

// Checks one command's help, then recurses into its subcommands. `path` is "" for kinevo itself.
void check_help(const std::string& path, int& commands_seen) {
  const auto r = run_kinevo(path + " --help");
  ASSERT_EQ(r.status, 0) << path;
  ++commands_seen;
  const auto lines = lines_of(r.out);
  std::string section;
  std::vector<std::string> children;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (!l.empty() && l[0] != ' ' && l.back() == ':') {
      // CLI11's sections, or an option group (entries are options); a footer's "Exit status:"
      // and its table are free text.
      const bool options_follow = i + 1 < lines.size() && lines[i + 1].rfind("  -", 0) == 0;
      const bool known = l == "Positionals:" || l == "Options:" || l == "Subcommands:";
      section = known || options_follow ? l : "";
      continue;
    }
    if (l.find_first_not_of(' ') == std::string::npos) section.clear();  // a section ends
    if (section.empty() || !is_entry(l)) continue;
    EXPECT_TRUE(has_description(lines, i)) << "kinevo " << path << ": no description: " << l;
    if (section == "Subcommands:") children.push_back(l.substr(2, l.find(' ', 2) - 2));
  }
  for (const auto& child : children) check_help(path + " " + child, commands_seen);
}

TEST(CliConventions, EveryOptionAndSubcommandHasADescription) {
  int commands_seen = 0;
  check_help("", commands_seen);
  // kinevo, its subcommands and their children (synth fourbar, analyze chain, ...).
  EXPECT_GT(commands_seen, 15);
}

TEST(CliConventions, OptimizeOptionsAllHaveHelp) {
  const auto r = run_kinevo("optimize --help");
  ASSERT_EQ(r.status, 0);
  const auto lines = lines_of(r.out);
  for (const char* name : {"--tournament-size", "--elites", "--islands", "--migrants",
                           "--stall-tolerance", "--sbx-eta"}) {
    bool found = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (lines[i].rfind(std::string("  ") + name + " ", 0) != 0) continue;
      found = true;
      EXPECT_TRUE(has_description(lines, i)) << lines[i];
    }
    EXPECT_TRUE(found) << name;
  }
  // About 70 options, listed in sections.
  for (const char* section :
       {"Problem:", "Genetic algorithm:", "Islands and parallelism:", "Range runs:", "Output:"}) {
    EXPECT_NE(r.out.find(std::string("\n") + section + "\n"), std::string::npos) << section;
  }
  EXPECT_NE(r.out.find("\nTermination (the first limit met ends the run):\n  --generations"),
            std::string::npos);
}

TEST(CliConventions, PresetListsItsValues) {
  for (const char* cmd : {"simulate --help", "accel --help"}) {
    const auto r = run_kinevo(cmd);
    ASSERT_EQ(r.status, 0);
    EXPECT_NE(
        r.out.find(
            "preset, one of default, exact-hessian, g3-pcx, learned-metric, no-oracle, thesis"),
        std::string::npos)
        << cmd;
  }
}

TEST(CliConventions, MisspeltNamesGetADidYouMeanAndExit2) {
  struct misspelling {
    std::string args;
    std::string suggestion;  // "" : none expected
  };
  const std::string model = std::string(KINEVO_EXAMPLES) + "/double_pendulum.toml";
  const std::vector<misspelling> cases = {
      {"simulat " + model, "kinevo: unknown subcommand 'simulat': did you mean 'simulate'?"},
      {"synth forbar --table x.csv",
       "kinevo synth: unknown subcommand 'forbar': did you mean 'fourbar'?"},
      {"simulate " + model + " --t-edn 1", "unknown '--t-edn': did you mean '--t-end'?"},
      {"frobnicate", ""},
  };
  for (const auto& c : cases) {
    const auto r = run_kinevo(c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    if (c.suggestion.empty()) {
      EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
    } else {
      EXPECT_NE(r.err.find(c.suggestion), std::string::npos) << r.err;
    }
  }
}

// A missing or unknown subcommand is kinevo's message (one line, exit 2), not CLI11's "A
// subcommand is required", which it printed even for a misspelt one.
TEST(CliConventions, MissingOrUnknownSubcommandIsKinevosMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "kinevo: a subcommand is required: one of simulate, "},
      {"--json", "kinevo: a subcommand is required: one of simulate, "},
      {"synth", "kinevo synth: a subcommand is required: one of fourbar, "},
      {"analyze loop",
       "kinevo analyze loop: a subcommand is required: one of rrrr, rprr, rrrp or chain"},
      {"frobnicate", "kinevo: unknown subcommand 'frobnicate': the subcommands are simulate, "},
      {"simulat", "kinevo: unknown subcommand 'simulat': did you mean 'simulate'?"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_kinevo(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << args << ": " << r.err;
    EXPECT_EQ(r.err.find("A subcommand is required"), std::string::npos) << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
  // With --json the message is the JSON's too.
  const auto j = nlohmann::json::parse(run_kinevo("synth --json").out);
  EXPECT_EQ(j["status"], "bad_input");
  EXPECT_EQ(j["message"].get<std::string>().rfind("kinevo synth: a subcommand is required", 0), 0u);
}

TEST(CliConventions, VersionIsTheProjectVersion) {
  const auto r = run_kinevo("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, std::string("kinevo ") + KINEVO_PROJECT_VERSION + "\n");
}

TEST(CliConventions, StudyTakesOutputDirAndKeepsOut) {
  for (const char* option : {"-o", "--out"}) {
    const auto dir = fresh_dir(std::string("study_output_dir") + option);
    const auto r = run_kinevo(std::string("study double-pendulum --t-end 0 --quiet ") + option +
                              " " + dir.string());
    EXPECT_EQ(r.status, 0) << option << r.err;
    EXPECT_FALSE(std::filesystem::is_empty(dir)) << option;
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace kinevo::test
