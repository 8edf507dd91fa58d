// Problem files for `kinevo optimize --problem`: values, penalties, bounds and error messages.
#include <gtest/gtest.h>

#include <cmath>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"
#include "problem_test_support.hpp"

namespace kinevo::symbolic {
namespace {

TEST(OptimizationProblem, ExampleValuesAndPenalties) {
  const auto p =
      load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/problem_constrained.toml");
  ASSERT_EQ(p->dimension(), 2);
  EXPECT_EQ(p->variable_names(), (std::vector<std::string>{"x1", "x2"}));
  EXPECT_EQ(p->lower_bounds()[0], -3.0);
  ASSERT_EQ(p->constraints().size(), 2u);
  EXPECT_TRUE(p->constraints()[0].equality);
  EXPECT_EQ(p->constraints()[1].weight, 1e5);
  // The closed-form solution: feasible, f* = 1.3934650, no penalty.
  Eigen::VectorXd x(2);
  x << (std::sqrt(7.0) - 1) / 2, (std::sqrt(7.0) + 1) / 4;
  EXPECT_NEAR(p->objective(x), 1.393464980, 1e-8);
  EXPECT_LT(p->max_violation(x), 1e-14);
  // The unconstrained minimiser (2, 1) violates both: h = 1, g = 1 (the penalised value is
  // optimization/'s, tests/optimization/test_optimization_run.cpp).
  Eigen::VectorXd y(2);
  y << 2.0, 1.0;
  EXPECT_NEAR(p->constraint_values(y)[0], 1.0, 1e-15);
  EXPECT_NEAR(p->max_violation(y), 1.0, 1e-15);
}

using test_support::error_of;

TEST(OptimizationProblem, ErrorsNameFileLineAndField) {
  const std::string base =
      "[problem]\nobjective = \"x^2\"\n[[variable]]\nname = \"x\"\nlower = -1\nupper = 1\n";
  EXPECT_NO_THROW((void)load_optimization_problem_from_string(base, "p.toml"));
  std::string e = error_of(
      "[problem]\nobjective = \"y^2\"\n[[variable]]\nname = \"x\"\nlower = -1\nupper = 1\n");
  EXPECT_NE(e.find("p.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("known names"), std::string::npos) << e;
  e = error_of(
      "[problem]\nobjective = \"x^2\"\n[[variable]]\nname = \"x\"\nlower = 1\nupper = -1\n");
  EXPECT_NE(e.find("p.toml:6"), std::string::npos) << e;
  EXPECT_NE(e.find("lower < upper"), std::string::npos) << e;
  // The line of the field itself, as for every field (the table's line when it is missing).
  e = error_of(base + "[[constraint]]\nname = \"c\"\ntype = \">=\"\nexpression = \"x\"\n");
  EXPECT_NE(e.find("p.toml:9: [[constraint]] 'c' field 'type'"), std::string::npos) << e;
  EXPECT_NE(e.find("'>='"), std::string::npos) << e;
  e = error_of(base + "[[constraint]]\nname = \"c\"\nexpression = \"x +\"\n");
  EXPECT_NE(e.find("cannot parse"), std::string::npos) << e;
  e = error_of("[[variable]]\nname = \"x\"\nlower = -1\nupper = 1\n");
  EXPECT_NE(e.find("[problem]"), std::string::npos) << e;
  e = error_of(base + "[[variable]]\nname = \"z\"\nlower = -1\n");
  EXPECT_NE(e.find("upper"), std::string::npos) << e;
}

// About 3,500 nested exp(-exp(-...)) overflowed GiNaC's recursive parser (SIGSEGV).
TEST(OptimizationProblem, DeeplyNestedObjectiveIsRefused) {
  std::string deep;
  for (int i = 0; i < 10'000; ++i) deep += "exp(-";
  deep += "x";
  for (int i = 0; i < 10'000; ++i) deep += ")";
  const std::string e = error_of("[problem]\nobjective = \"" + deep +
                                 "\"\n[[variable]]\nname = \"x\"\nlower = -1\nupper = 1\n");
  EXPECT_NE(e.find("p.toml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("objective"), std::string::npos) << e;
  EXPECT_NE(e.find("more than 200 levels"), std::string::npos) << e;
}

}  // namespace
}  // namespace kinevo::symbolic
