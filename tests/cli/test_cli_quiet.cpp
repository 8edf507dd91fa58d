// Conventions of every subcommand (docs/cli.md), checked by walking `kinevo --help` down to every
// command that runs and running each one on a small example: -q/--quiet gives exit 0 and nothing
// on stdout (the files asked for are still written); and no text it prints or writes (the report
// on stdout, CSV, Markdown, TOML, JSON) shows a negative zero. A new subcommand without a case
// here fails the tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

// The commands that run (no subcommands of their own), as "synth fourbar", from the
// "Subcommands:" sections of the help texts.
void collect_runnable(const std::string& path, std::vector<std::string>& out) {
  const auto r = run_kinevo(path + " --help");
  ASSERT_EQ(r.status, 0) << path;
  std::vector<std::string> children;
  bool in_subcommands = false;
  for (const auto& l : lines_of(r.out)) {
    if (!l.empty() && l[0] != ' ') in_subcommands = l == "Subcommands:";
    if (in_subcommands && l.size() > 2 && l.compare(0, 2, "  ") == 0 && l[2] != ' ') {
      children.push_back(l.substr(2, l.find(' ', 2) - 2));
    }
  }
  if (children.empty()) out.push_back(path.substr(1));
  for (const auto& c : children) collect_runnable(path + " " + c, out);
}

// The arguments of a small run of each command, its files written into d.
std::map<std::string, std::string> small_runs(const std::string& d) {
  const std::string run_csv = d + "/run.csv";
  return {
      {"simulate", example("double_pendulum.toml") + " --t-end 0.01 --out " + run_csv},
      {"animate",
       run_csv + " --model " + example("double_pendulum.toml") + " --out " + d + "/motion.html"},
      {"kinematics",
       example("haug_fourbar.toml") + " --t-end 0.1 --dt 0.05 --out " + d + "/kin.csv"},
      {"accel", example("double_pendulum.toml")},
      {"analyze loop rrrr", "--a1 2 --a2 2.5 --a3 1.3 --a4 1 --from 0 --to 1 --step 0.5"},
      {"analyze loop rprr", "--a1 2.5 --a2 1.2 --expression 3 --t-end 1 --dt 0.5"},
      {"analyze loop rrrp", "--a1 0 --a2 1 --a3 2 --from 0 --to 1 --step 0.5"},
      {"analyze loop chain", example("shovel_actuator.toml") + " -o " + d + "/loop"},
      {"analyze chain", example("chain_6r_hexflex.toml")},
      {"screw finite", "--table " + example("screw_finite_points.csv")},
      {"screw instant", "--table " + example("screw_instant_points.csv")},
      {"model chain", "--links 2 --out " + d + "/chain.toml"},
      {"model info", example("double_pendulum.toml")},
      {"model assemble", example("double_pendulum.toml") + " --out " + d + "/assembled.toml"},
      {"optimize", "--function sphere --dim 2 --generations 5"},
      {"synth fourbar", "--table " + example("grashof_table1.csv")},
      {"synth rssr", "--table " + example("rssr_19.csv")},
      {"synth dyad", "--poses " + example("dyad_17.csv")},
      {"synth path", example("path/case1_straight_line.csv") + " --seed 1"},
      {"synth chebyshev", "--from 0 --to 1 -n 5"},
      {"synth cam", example("cam_translating_roller.toml")},
      {"study double-pendulum", "--t-end 0 -o " + d + "/study"},
  };
}

// Every runnable command, simulate first (animate draws its run).
std::vector<std::string> runnable_commands() {
  std::vector<std::string> commands;
  collect_runnable("", commands);
  std::stable_partition(commands.begin(), commands.end(),
                        [](const std::string& c) { return c == "simulate"; });
  return commands;
}

TEST(CliConventions, EverySubcommandTakesQuiet) {
  const auto dir = fresh_dir("quiet_every_subcommand");
  const std::string d = dir.string();
  const auto args = small_runs(d);
  const auto commands = runnable_commands();
  EXPECT_EQ(commands.size(), args.size());
  for (const auto& command : commands) {
    const auto it = args.find(command);
    ASSERT_NE(it, args.end()) << "no -q case for 'kinevo " << command << "'";
    for (const char* quiet : {"-q", "--quiet"}) {
      const auto r = run_kinevo(command + " " + it->second + " " + quiet);
      EXPECT_EQ(r.status, 0) << command << " " << quiet << ": " << r.err;
      EXPECT_EQ(r.out, "") << command << " " << quiet;
    }
  }
  EXPECT_TRUE(std::filesystem::exists(d + "/motion.html"));
  EXPECT_TRUE(std::filesystem::exists(d + "/assembled.toml"));
}

// Where `text` shows a negative zero as a number of its own ("-0", "-0.000", "-0e+00"; not
// "-0.5", "x-0" or "2026-01-02"), the line holding the first one; empty when there is none.
std::string negative_zero_line(const std::string& text) {
  for (std::size_t at = text.find("-0"); at != std::string::npos; at = text.find("-0", at + 1)) {
    if (at > 0) {
      const unsigned char before = static_cast<unsigned char>(text[at - 1]);
      if (std::isalnum(before) != 0 || before == '.' || before == '_' || before == '-') continue;
    }
    std::size_t end = at + 2;
    if (end < text.size() && text[end] == '.') {
      ++end;
      while (end < text.size() && text[end] == '0') ++end;
    }
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
      std::size_t e = end + 1;
      if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
      while (e < text.size() && text[e] == '0') ++e;
      end = e;
    }
    if (end < text.size() &&
        (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '.')) {
      continue;
    }
    const std::size_t begin = text.rfind('\n', at);
    const std::size_t first = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(first, text.find('\n', at) - first);
  }
  return "";
}

TEST(CliConventions, NegativeZeroIsFoundOnlyAsANumber) {
  EXPECT_EQ(negative_zero_line("a,b\n1,-0\n"), "1,-0");
  EXPECT_EQ(negative_zero_line("x = -0.000 m"), "x = -0.000 m");
  EXPECT_EQ(negative_zero_line("-0e+00"), "-0e+00");
  EXPECT_EQ(negative_zero_line("t = -0.5, 2026-01-02, case-0, 1e-05, --0x"), "");
}

// No text output of any command shows a negative zero: the report on stdout, and every CSV,
// Markdown, TOML and JSON file it writes (with its output folder asked for where it has one).
TEST(CliConventions, NoNegativeZeroInAnyTextOutput) {
  const auto dir = fresh_dir("no_negative_zero");
  const std::string d = dir.string();
  const auto args = small_runs(d);
  for (const auto& command : runnable_commands()) {
    const auto it = args.find(command);
    ASSERT_NE(it, args.end()) << "no case for 'kinevo " << command << "'";
    std::string extra;
    const auto help = run_kinevo(command + " --help");
    if (help.out.find("--output-dir") != std::string::npos &&
        it->second.find(" -o ") == std::string::npos) {
      std::string folder = command;
      std::replace(folder.begin(), folder.end(), ' ', '_');
      extra = " -o " + d + "/" + folder;
    }
    const auto r = run_kinevo(command + " " + it->second + extra);
    EXPECT_EQ(r.status, 0) << command << ": " << r.err;
    EXPECT_EQ(negative_zero_line(r.out), "") << "kinevo " << command << " printed a -0";
  }
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const auto ext = entry.path().extension().string();
    if (!entry.is_regular_file() ||
        (ext != ".csv" && ext != ".md" && ext != ".toml" && ext != ".json" && ext != ".txt")) {
      continue;
    }
    ++files;
    EXPECT_EQ(negative_zero_line(read_text(entry.path())), "") << entry.path();
  }
  EXPECT_GT(files, 20);
}

}  // namespace
}  // namespace kinevo::test
