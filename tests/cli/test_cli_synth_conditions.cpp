// End-to-end tests of the link-type options of `kinevo synth fourbar` (--output rocker,
// --coupler crank|rocker) and of the refined GA of `kinevo synth rssr --method ga`.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/cli_test_support.hpp"

namespace {

using kinevo::test::example;
using kinevo::test::run_kinevo;

nlohmann::json fourbar(const std::string& args, int expected_status = 0) {
  const auto r =
      run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " " + args + " --json");
  EXPECT_EQ(r.status, expected_status) << r.err;
  return nlohmann::json::parse(r.out);  // one JSON object on stdout, also when infeasible
}

}  // namespace

TEST(CliSynthConditions, OutputRockerAndCouplerCrank) {
  for (const char* method : {"penalty", "ga"}) {
    // The types hold, but the linkage misses the table point psi = 90 deg: exit 1.
    const auto j = fourbar(std::string("--output rocker --coupler crank --method ") + method, 1);
    EXPECT_EQ(j["status"], "not_assembled");
    const auto& c = j["conditions"];
    EXPECT_TRUE(c["holds"].get<bool>());
    EXPECT_TRUE(c["output"]["rocker"].get<bool>());
    EXPECT_EQ(c["output"]["required"], "rocker");
    EXPECT_TRUE(c["output"]["second_order_holds"].get<bool>());
    EXPECT_LT(std::min(c["output"]["factor_19b_at_0"].get<double>(),
                       c["output"]["factor_19b_at_pi"].get<double>()),
              0.0);
    EXPECT_EQ(c["coupler"]["required"], "crank");
    EXPECT_TRUE(c["coupler"]["turns"].get<bool>());
    EXPECT_GT(c["coupler"]["c32a"].get<double>(), 0.0);
    EXPECT_GT(c["coupler"]["c32b"].get<double>(), 0.0);
    EXPECT_GT(c["coupler"]["c37a"].get<double>(), 0.0);
    EXPECT_GT(c["coupler"]["c37b"].get<double>(), 0.0);
    // A Grashof chain whose coupler is the shortest link: double rocker.
    EXPECT_EQ(j["grashof"], "double-rocker");
  }
}

TEST(CliSynthConditions, CouplerRocker) {
  const auto j = fourbar("--coupler rocker");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_FALSE(j["conditions"]["coupler"]["turns"].get<bool>());
  EXPECT_TRUE(j["conditions"]["coupler"]["holds"].get<bool>());
}

// Without requirements the conditions are still reported, and nothing is "required".
TEST(CliSynthConditions, ReportedWithoutRequirements) {
  const auto j = fourbar("");
  EXPECT_EQ(j["conditions"]["output"]["required"], "any");
  EXPECT_EQ(j["conditions"]["coupler"]["required"], "none");
  EXPECT_TRUE(j["conditions"]["holds"].get<bool>());
}

// Contradictory types: status "infeasible" in the JSON, a message on stderr, exit 1.
TEST(CliSynthConditions, InfeasibleExitsOne) {
  for (const char* method : {"penalty", "ga"}) {
    const auto j =
        fourbar(std::string("--crank input --output rocker --coupler crank --method ") + method, 1);
    EXPECT_EQ(j["status"], "infeasible");
    EXPECT_FALSE(j["status_message"].get<std::string>().empty());
  }
  const auto r = run_kinevo("synth fourbar --table " + example("grashof_table1.csv") +
                            " --crank both --coupler rocker");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("infeasible"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("status: infeasible"), std::string::npos) << r.out;
}

TEST(CliSynthConditions, BadValuesExitTwo) {
  for (const char* args : {"--output crank", "--coupler spinning", "--crank output --output rocker",
                           "--exact --coupler crank"}) {
    const auto r =
        run_kinevo("synth fourbar --table " + example("grashof_table1.csv") + " " + args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_FALSE(r.err.empty()) << args;
  }
}

// The GA plus Householder Gauss-Newton lands on the least-squares k of rssr_19 (checked values
// to the 7 printed digits), and reports the GA stage before the refinement.
TEST(CliSynthConditions, RssrGaReachesLeastSquares) {
  const auto r = run_kinevo("synth rssr --table " + example("rssr_19.csv") + " --method ga --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const double k[6] = {-0.0818733, 3.4893753, -1.1764544, -1.3955576, -0.3864268, -2.0938118};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(j["k"][i].get<double>(), k[i], 5e-8) << i;
  EXPECT_TRUE(j["ga_stage"]["refined"].get<bool>());
  EXPECT_GE(j["ga_stage"]["rms_error_deg"].get<double>(), j["rms_error_deg"].get<double>());
  // --no-refine keeps the GA stage alone.
  const auto g = run_kinevo("synth rssr --table " + example("rssr_19.csv") +
                            " --method ga --no-refine --json");
  ASSERT_EQ(g.status, 0) << g.err;
  const auto jg = nlohmann::json::parse(g.out);
  EXPECT_FALSE(jg["ga_stage"]["refined"].get<bool>());
  EXPECT_EQ(jg["k"], jg["ga_stage"]["k"]);
}
