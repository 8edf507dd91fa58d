// kinevo optimize --problem: a TOML problem file with constraints handled by penalty weights.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "tests/cli/run_command.hpp"

using kinevo::test::run_kinevo;

TEST(CliOptimizeProblem, BrackenMcCormickReachesTheClosedForm) {
  const auto r = run_kinevo(std::string("optimize --problem ") + KINEVO_EXAMPLES +
                            "/problem_constrained.toml --preset tuned --seed 2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // x* = ((sqrt 7 - 1)/2, (sqrt 7 + 1)/4) on the active ellipse and the line; the penalty
  // weights (1e4, 1e5) move the minimiser by O(1/w), well inside 1e-3.
  const double x1 = (std::sqrt(7.0) - 1.0) / 2.0;
  const double x2 = (std::sqrt(7.0) + 1.0) / 4.0;
  EXPECT_NEAR(j["best_x"][0].get<double>(), x1, 1e-3);
  EXPECT_NEAR(j["best_x"][1].get<double>(), x2, 1e-3);
  EXPECT_LT(j["max_violation"].get<double>(), 1e-3);
  EXPECT_EQ(j["variables"][0], "x1");
}

TEST(CliOptimizeProblem, UnknownSymbolNamesFileAndLine) {
  const auto r = run_kinevo(std::string("optimize --problem ") + KINEVO_TEST_DATA +
                            "/optimize/bad_expression.toml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("bad_expression.toml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("y"), std::string::npos) << r.err;
}

TEST(CliOptimizeProblem, ProblemAndFunctionContradict) {
  const auto r = run_kinevo(std::string("optimize --problem ") + KINEVO_EXAMPLES +
                            "/problem_constrained.toml --function sphere");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--problem"), std::string::npos) << r.err;
}
