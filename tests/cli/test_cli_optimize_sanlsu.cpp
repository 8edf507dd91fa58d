// kinevo optimize --method sanlsu (SANLSU gradient projection) and --refine sanlsu (the GA, then
// gradient projection from its best) on the examples of Angeles et al., Diseño cinemático de
// maquinaria, paper "Análisis cinemático de manipuladores con articulaciones redundantes haciendo
// uso de minimización cuadrática": JSON keys, exit status, diagnostics.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "tests/cli/cli_test_support.hpp"

using kinevo::test::example;
using kinevo::test::run_kinevo;

namespace {

constexpr double pi = std::numbers::pi;

// kinevo optimize --problem examples/FILE --method sanlsu ARGS
kinevo::test::command_output sanlsu(const std::string& file, const std::string& args) {
  return run_kinevo("optimize --problem " + example(file) + " --method sanlsu " + args);
}

TEST(CliOptimizeSanlsu, EllipseReachesTheMinimumWithTheGaKeys) {
  for (const char* c : {"2", "3"}) {
    // TOLF = 1e-6 (the default) leaves z within lambda 1e-6 of 0.125: tighter for the digits.
    const auto r =
        sanlsu("sanlsu_ellipse.toml", std::string("--sanlsu-case ") + c +
                                          " --sanlsu-tolx 1e-10 --sanlsu-tolf 1e-12 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["status"], "converged");
    EXPECT_EQ(j["case"], std::stoi(c));
    EXPECT_NEAR(j["best_x"][0].get<double>(), 0.0, 1e-5);
    EXPECT_NEAR(j["best_x"][1].get<double>(), 0.5, 1e-6);  // the start (0.6, 0.4) is above
    EXPECT_NEAR(j["best_value"].get<double>(), 0.125, 1e-9);
    EXPECT_NEAR(j["lambda"][0].get<double>(), 0.125, 1e-5);
    EXPECT_GT(j["iterations"].get<int>(), 1);
    EXPECT_EQ(j["variables"][1], "x2");
  }
}

TEST(CliOptimizeSanlsu, StartOnTheMajorAxisIsReportedExitOne) {
  const auto r = sanlsu("sanlsu_ellipse.toml", "--start 1,0 --json");
  EXPECT_EQ(r.status, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "not_a_minimum");
  EXPECT_NE(r.err.find("not a minimum"), std::string::npos) << r.err;
}

TEST(CliOptimizeSanlsu, ArmReachesTheGlobalMinimumFromTheFileStart) {
  const auto r = sanlsu("sanlsu_arm.toml", "--json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["best_x"][1].get<double>(), pi / 2, 1e-5);
  EXPECT_NEAR(j["best_value"].get<double>(), pi * pi / 4, 1e-7);
  EXPECT_NEAR(j["lambda"][1].get<double>(), -pi / 2, 1e-5);
}

TEST(CliOptimizeSanlsu, StretchedArmIsRankDeficientExitOne) {
  const auto r = sanlsu("sanlsu_arm.toml", "--start 0,0,0 --json");
  EXPECT_EQ(r.status, 1);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "rank_deficient");
  EXPECT_EQ(j["rank_deficient_constraints"][0], "reach_x");
  EXPECT_TRUE(j["best_x"].is_null());  // never returned as an answer
  EXPECT_EQ(j["last_x"].size(), 3u);
  EXPECT_NE(r.err.find("reach_x"), std::string::npos) << r.err;
  // The text report says it too.
  const auto t = sanlsu("sanlsu_arm.toml", "--start 0,0,0");
  EXPECT_EQ(t.status, 1);
  EXPECT_NE(t.out.find("rank_deficient"), std::string::npos) << t.out;
}

TEST(CliOptimizeSanlsu, InequalityProblemIsRefusedExitTwo) {
  const auto r = sanlsu("problem_constrained.toml", "");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("inequality"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("problem_constrained.toml"), std::string::npos) << r.err;
}

TEST(CliOptimizeSanlsu, BadOptionsAreNamed) {
  auto r = run_kinevo("optimize --method sanlsu");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--method"), std::string::npos) << r.err;
  r = sanlsu("sanlsu_arm.toml", "--sanlsu-damping 1.5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--sanlsu-damping"), std::string::npos) << r.err;
  r = sanlsu("sanlsu_arm.toml", "--start 1,2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--start"), std::string::npos) << r.err;
  r = run_kinevo("optimize --problem " + example("sanlsu_arm.toml") + " --sanlsu-case 4");
  EXPECT_EQ(r.status, 2);
}

TEST(CliOptimizeSanlsu, RefineRunsTheGaThenReachesTheKktPoint) {
  const auto r = run_kinevo("optimize --problem " + example("sanlsu_arm.toml") +
                            " --refine sanlsu --seed 7 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "converged");
  EXPECT_EQ(j["refinement"]["status"], "converged");
  EXPECT_NEAR(j["best_value"].get<double>(), pi * pi / 4, 1e-7);
  EXPECT_NEAR(j["best_x"][2].get<double>(), pi / 2, 1e-5);
  EXPECT_TRUE(j.contains("ga_best_x"));
  EXPECT_TRUE(j.contains("generations"));
  // The GA's own answer satisfies h to its tolerance only: further from the optimum.
  const double ga_error = std::abs(j["ga_best_x"][2].get<double>() - pi / 2);
  EXPECT_GT(ga_error, std::abs(j["best_x"][2].get<double>() - pi / 2));
}

}  // namespace
