// -q/--quiet on every subcommand (docs/cli.md): the test walks `kinevo --help` down to every
// command that runs, and runs each one with -q on a small example: exit 0 and nothing on stdout
// (the files asked for are still written). A new subcommand without a case here fails the test.
#include <gtest/gtest.h>

#include <algorithm>
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

TEST(CliConventions, EverySubcommandTakesQuiet) {
  const auto dir = fresh_dir("quiet_every_subcommand");
  const std::string d = dir.string();
  const std::string run_csv = d + "/run.csv";
  const std::map<std::string, std::string> args = {
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
  std::vector<std::string> commands;
  collect_runnable("", commands);
  EXPECT_EQ(commands.size(), args.size());
  // simulate first: animate draws its run.
  std::stable_partition(commands.begin(), commands.end(),
                        [](const std::string& c) { return c == "simulate"; });
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

}  // namespace
}  // namespace kinevo::test
