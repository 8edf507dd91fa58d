// End-to-end tests of `kinevo accel`.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "tests/cli/cli_test_support.hpp"

namespace kinevo::test {
namespace {

TEST(CliAccel, JsonShapeAndDoublePendulumValues) {
  const auto r = run_kinevo("accel " + examples + "/double_pendulum.toml --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["coordinates"], (std::vector<std::string>{"p1_x", "p1_y", "p2_x", "p2_y"}));
  for (const char* name : {"lm", "uk", "gigsp", "sl", "kv"}) {
    const auto& s = j["solvers"][name];
    ASSERT_TRUE(s.is_object()) << name;
    EXPECT_EQ(s["rank"], 2) << name;
    EXPECT_TRUE(s["redundant"].empty()) << name;
    EXPECT_TRUE(s["inconsistent"].empty()) << name;
    EXPECT_NEAR(s["a"][3].get<double>(), -2 * std::numbers::pi * std::numbers::pi, 1e-12) << name;
  }
}

TEST(CliAccel, RedundantFiveBarNamesRedundantRowsAndLmFails) {
  const auto r = run_kinevo("accel " + examples + "/fivebar_redundant.toml --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solvers"]["gigsp"]["redundant"],
            (std::vector<std::string>{"link3_x", "link5_x", "link5_y"}));
  EXPECT_EQ(j["solvers"]["lm"]["status"], "singular");
  EXPECT_EQ(j["solvers"]["uk"]["a"], j["solvers"]["gigsp"]["a"]);
}

TEST(CliAccel, InconsistentSetIsNamedAndExitsNonZero) {
  const auto r = run_kinevo("accel " + examples + "/fivebar_inconsistent.toml --json");
  EXPECT_EQ(r.status, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solvers"]["gigsp"]["inconsistent"], (std::vector<std::string>{"link5_y"}));
  EXPECT_EQ(j["solvers"]["gigsp"]["status"], "inconsistent");
  EXPECT_EQ(j["solvers"]["uk"]["status"], "least_squares");
  const auto text = run_kinevo("accel " + examples + "/fivebar_inconsistent.toml");
  EXPECT_EQ(text.status, 1);
  EXPECT_NE(text.out.find("'link5_y'"), std::string::npos) << text.out;
}

// Exit status 0 means every requested solver's answer can be used; least squares, singular
// and redundant rows are diagnoses of the model (the redundant five-bar above exits 0 with LM
// singular). A solver that did not converge or gave NaN is a failure: exit 1, named on stderr,
// and the JSON still has every solver.
TEST(CliAccel, UnconvergedSolverExitsOneAndIsNamed) {
  // A tolerance of 1e-300 cannot be met (round-off), so the GA returns not_converged whatever
  // its accuracy: deterministic without relying on how well the GA is tuned.
  const auto r = run_kinevo("accel " + examples +
                            "/haug_fourbar.toml --solvers gigsp ga --tolerance 1e-300 --json");
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["solvers"]["ga"]["status"], "not_converged");
  EXPECT_EQ(j["solvers"]["gigsp"]["status"], "ok");
  EXPECT_EQ(j["reference"], "gigsp");
  EXPECT_EQ(j["failed"], (std::vector<std::string>{"ga"}));
  EXPECT_EQ(j["inconsistent"], false);
  EXPECT_NE(r.err.find("the ga solver did not converge"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("gigsp"), std::string::npos) << r.err;
}

TEST(CliAccel, NaNAccelerationExitsOneAndNamesTheForce) {
  const auto dir = fresh_dir("accel_nan");
  const auto file = dir / "nan.toml";
  {
    std::ofstream f(file);
    f << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nmass = 1.0\nforce = \"log(x - 10)\"\n"
         "[[coordinate]]\nname = \"y\"\ninitial = 0.0\nmass = 1.0\n"
         "[[constraint]]\nname = \"c\"\nholonomic = \"x - y\"\n";
  }
  const auto r = run_kinevo("accel " + file.string() + " --solvers gigsp uk --json");
  EXPECT_EQ(r.status, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["failed"], (std::vector<std::string>{"gigsp", "uk"}));
  EXPECT_EQ(j["solvers"]["gigsp"]["finite"], false);
  EXPECT_TRUE(j["solvers"]["gigsp"].contains("status"));
  EXPECT_TRUE(j["reference"].is_null());
  EXPECT_EQ(j["non_finite_inputs"], (std::vector<std::string>{"force of 'x'"}));
  // The NaN force is refused before solving (status non_finite), naming the coordinate.
  EXPECT_EQ(j["solvers"]["gigsp"]["status"], "non_finite");
  EXPECT_NE(r.err.find("the gigsp solver refused the system"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("force of 'x'"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

TEST(CliAccel, HelpStatesTheExitStatusRule) {
  const auto r = run_kinevo("accel --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("did not converge"), std::string::npos) << r.out;
}

TEST(CliAccel, SetOverridesAParameter) {
  // Gravity along the rods does not change a at t = 0, only f_c = M (a - a_f) = -pi^2 - g.
  const auto r =
      run_kinevo("accel " + examples + "/double_pendulum.toml --set g=20 --solvers gigsp --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["solvers"]["gigsp"]["constraint_force"][1].get<double>(),
              -std::numbers::pi * std::numbers::pi - 20.0, 1e-10);
  const auto bad = run_kinevo("accel " + examples + "/double_pendulum.toml --set gee=20");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("no parameter 'gee'"), std::string::npos) << bad.err;
}

TEST(CliAccel, BadModelFileExitsTwoWithFileAndLine) {
  const auto dir = fresh_dir("accel_bad");
  const auto file = dir / "bad.toml";
  {
    std::ofstream f(file);
    f << "[[coordinate]]\nname = \"x\"\ninitial = 0.0\nmass = 1.0\n[[constraint]]\nname = \"c\"\n"
         "holonomic = \"x + y\"\n";
  }
  const auto r = run_kinevo("accel " + file.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad.toml:7"), std::string::npos) << r.err;
  const auto missing = run_kinevo("accel " + (dir / "none.toml").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
  const auto solver = run_kinevo("accel " + examples + "/pendulum.toml --solvers newton");
  EXPECT_EQ(solver.status, 2);
  EXPECT_NE(solver.err.find("unknown solver 'newton'"), std::string::npos) << solver.err;
}

TEST(CliAccel, NonFiniteAndOutOfRangeNumbersExitTwoNamingTheOption) {
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--t nan", "--t must be finite"},
           {"--t inf", "--t must be finite"},
           {"--rank-tolerance nan", "--rank-tolerance must be finite and in (0, 1)"},
           {"--rank-tolerance 1e308", "--rank-tolerance must be finite and in (0, 1)"},
           {"--rank-tolerance 0", "--rank-tolerance must be finite and in (0, 1)"},
           {"--islands 0", "--islands must be an integer >= 1"},
           {"--tolerance nan", "--tolerance must be finite and > 0"},
           {"--seed -1", "--seed: must be an integer in [0, 18446744073709551615]"},
           {"--seed 18446744073709551616", "--seed: must be an integer in [0, 1844674407"},
           {"--seed 1e23", "--seed: must be an integer in [0, 18446744073709551615]"}}) {
    const auto r = run_kinevo("accel " + examples + "/pendulum.toml --quiet " + args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
}

// Issue 16, item 10: a solver's own bad option (an unknown GA preset) is bad input, exit 2
// naming the option and the allowed values (it was exit 1).
TEST(CliAccel, UnknownGaPresetExitsTwoNamingTheOption) {
  const auto r =
      run_kinevo("accel " + examples + "/pendulum.toml --quiet --solvers ga --preset thesi");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--preset"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("g3-pcx, thesis or one of the default's older names"), std::string::npos)
      << r.err;
}

// The text table is the library's report (mechanics/solver_comparison): same lines as before.
TEST(CliAccel, TextTableListsEverySolverAndTheDifferences) {
  const auto r = run_kinevo("accel " + examples + "/double_pendulum.toml");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("acceleration"), std::string::npos) << r.out;
  for (const std::string name : {"lm", "uk", "gigsp", "sl", "kv"}) {
    EXPECT_NE(r.out.find("\n" + name + " "), std::string::npos) << name << ": " << r.out;
  }
  EXPECT_NE(r.out.find("max |a - a_lm|"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace kinevo::test
