// The --json contract (docs/cli.md): every exit of every subcommand prints exactly one JSON
// object on stdout with at least status, message and exit_status. An independent fuzzing
// campaign found 64 failing runs with --json that left stdout empty.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

struct json_case {
  std::string args;  // without --json
  int status;
};

void expect_one_object(const json_case& c) {
  const auto r = run_kinevo(c.args + " --json");
  EXPECT_EQ(r.status, c.status) << "kinevo " << c.args << "\n" << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "kinevo " << c.args << ": stdout is not one JSON value:\n"
                                 << r.out;
  ASSERT_TRUE(j.is_object()) << r.out;
  ASSERT_TRUE(j.contains("status")) << r.out;
  ASSERT_TRUE(j.contains("message")) << r.out;
  EXPECT_TRUE(j["status"].is_string()) << r.out;
  EXPECT_TRUE(j["message"].is_string()) << r.out;
  EXPECT_EQ(j.value("exit_status", -1), c.status) << r.out;
  if (c.status != 0) {
    EXPECT_NE(j["status"], "ok") << "kinevo " << c.args << ": " << r.out;
    EXPECT_FALSE(j["message"].get<std::string>().empty()) << r.out;
  }
}

TEST(CliJsonContract, EveryExitPrintsOneObject) {
  const auto dir = fresh_dir("json_contract");
  const std::string d = dir.string();
  std::ofstream(dir / "nan.toml")
      << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nvelocity = 1.0\nmass = 1.0\n"
         "force = \"log(x - 10)\"\n";
  std::ofstream(dir / "bad.toml") << "[[coordinate]]\nname = \"x\"\ninitial = \"sin()\"\n";
  std::ofstream(dir / "bad.csv") << "a,b\n1,x\n";
  const std::string pendulum = example("pendulum.toml");
  const std::vector<json_case> cases = {
      // Command line: no subcommand, unknown option, empty value, repeated option.
      {"", 2},
      {"simulate " + pendulum + " --t-edn 1", 2},
      {"model chain --links 2 --gravity ''", 2},
      {"optimize --function sphere --function rastrigin", 2},
      // simulate
      {"simulate " + d + "/missing.toml", 2},
      {"simulate " + d + "/bad.toml", 2},
      {"simulate " + pendulum + " --t-end 1e308", 2},
      {"simulate " + d + "/nan.toml --t-end 0.02", 1},
      {"simulate " + pendulum + " --t-end 0.01", 0},
      // animate, kinematics, accel
      {"animate " + pendulum + " " + d + "/missing.csv", 2},
      {"kinematics " + d + "/missing.toml", 2},
      {"kinematics " + example("slider_crank_lockup.toml") + " --t-end 2 --dt 0.01", 1},
      {"accel " + d + "/bad.toml", 2},
      {"accel " + d + "/nan.toml", 1},
      {"accel " + pendulum, 0},
      // analyze
      {"analyze loop rrrr --a1 4 --a2 1 --a3 3.5 --a4 3 -e 'sin()'", 2},
      {"analyze loop chain " + d + "/missing.toml", 2},
      {"analyze chain " + d + "/missing.toml", 2},
      // screw
      {"screw finite --table " + d + "/bad.csv", 2},
      {"screw instant --table " + d + "/missing.csv", 2},
      // model
      {"model info /dev/zero", 2},
      {"model chain --links 0", 2},
      {"model assemble " + d + "/missing.toml", 2},
      // optimize
      {"optimize --function nosuch", 2},
      {"optimize --problem /dev/zero", 2},
      {"optimize --function sphere --dim 2 --lower -1e300 --upper 1e300", 1},
      {"optimize --function sphere --dim 2 --max-evals 200", 0},
      // synth
      {"synth fourbar --table " + d + "/bad.csv", 2},
      {"synth rssr --table " + d + "/missing.csv", 2},
      {"synth dyad --poses " + d + "/missing.csv", 2},
      {"synth chebyshev --from 30 --to 120 -n 0", 2},
      {"synth cam " + d + "/missing.toml", 2},
      // study
      {"study double-pendulum --t-end -1", 2},
  };
  for (const auto& c : cases) expect_one_object(c);
  std::filesystem::remove_all(dir);
}

// The object a failure without output gets, and the merge with a subcommand's own object.
TEST(CliJsonContract, InterruptedRunPrintsOneObject) {
  const auto dir = fresh_dir("json_contract_int");
  const auto r = run_kinevo_signalled(
      "simulate " + example("double_pendulum.toml") + " --json --t-end 1e4 --record-every 100000",
      "INT", dir);
  EXPECT_EQ(r.status, 130) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j.value("exit_status", -1), 130) << r.out;
  EXPECT_TRUE(j.contains("status") && j.contains("message")) << r.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kinevo::test
