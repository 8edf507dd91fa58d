// Integer and discrete variables in problem files: loading, the GA's search box, decoding genes
// (rounding, clamping, index to value), the error messages, and the two examples that use them
// (examples/gear_train.toml, examples/cantilever_stock.toml).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"
#include "problem_test_support.hpp"

namespace kinevo::symbolic {
namespace {

using kind = expression_problem::variable_kind;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

std::unique_ptr<expression_problem> load(const std::string& text) {
  return load_optimization_problem_from_string(text, "p.toml");
}

using test_support::error_of;

// One real, one integer and one discrete variable.
const std::string three_kinds =
    "[problem]\n"
    "objective = \"r + n + d\"\n"
    "[[variable]]\n"
    "name = \"r\"\n"
    "type = \"real\"\n"
    "lower = -1.5\n"
    "upper = 2.5\n"
    "[[variable]]\n"
    "name = \"n\"\n"
    "type = \"integer\"\n"
    "lower = 12\n"
    "upper = 60.0\n"  // a float that is a whole number is an integer bound
    "[[variable]]\n"
    "name = \"d\"\n"
    "type = \"discrete\"\n"
    "values = [10.0, 12.5, 16]\n";

TEST(ProblemVariableTypes, LoadsEachKind) {
  const auto p = load(three_kinds);
  ASSERT_EQ(p->dimension(), 3);
  EXPECT_EQ(p->variable_kinds(), (std::vector<kind>{kind::real, kind::integer, kind::discrete}));
  EXPECT_TRUE(p->has_integer_variables());
  // The GA's box: the file's bounds for real and integer variables, the index range [0, k - 1]
  // for the discrete one.
  EXPECT_EQ(p->lower_bounds(), Eigen::Vector3d(-1.5, 12.0, 0.0));
  EXPECT_EQ(p->upper_bounds(), Eigen::Vector3d(2.5, 60.0, 2.0));
  ASSERT_EQ(p->discrete_values().size(), 3u);
  EXPECT_TRUE(p->discrete_values()[0].empty());
  EXPECT_TRUE(p->discrete_values()[1].empty());
  EXPECT_EQ(p->discrete_values()[2], (std::vector<double>{10.0, 12.5, 16.0}));
  // The functions take decoded values.
  EXPECT_EQ(p->objective(p->decode(Eigen::Vector3d(0.25, 30.2, 1.1))), 0.25 + 30.0 + 12.5);

  // No type means real; a problem of real variables has nothing to round.
  const auto q =
      load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/problem_constrained.toml");
  EXPECT_EQ(q->variable_kinds(), (std::vector<kind>{kind::real, kind::real}));
  EXPECT_FALSE(q->has_integer_variables());
  const Eigen::Vector2d g(0.3, -1.7);
  EXPECT_EQ(q->decode(g), g);
  // Only an integer variable is enough for has_integer_variables().
  EXPECT_TRUE(load("[problem]\nobjective = \"n\"\n[[variable]]\nname = \"n\"\ntype = "
                   "\"integer\"\nlower = -3\nupper = 3\n")
                  ->has_integer_variables());
}

// std::nearbyint in the default rounding mode (round to nearest, ties to even): 12.5 -> 12,
// 13.5 -> 14, -2.5 -> -2. Then clamped to the file's bounds.
TEST(ProblemVariableTypes, DecodeRoundsIntegersTiesToEvenAndClamps) {
  const auto p = load(three_kinds);
  const auto n_of = [&](double gene) { return p->decode(Eigen::Vector3d(0.0, gene, 0.0))[1]; };
  EXPECT_EQ(n_of(12.0), 12.0);
  EXPECT_EQ(n_of(12.4), 12.0);
  EXPECT_EQ(n_of(12.5), 12.0);  // tie: to even
  EXPECT_EQ(n_of(12.6), 13.0);
  EXPECT_EQ(n_of(13.5), 14.0);  // tie: to even
  EXPECT_EQ(n_of(59.7), 60.0);
  EXPECT_EQ(n_of(60.5), 60.0);  // rounds to 60 (even)
  EXPECT_EQ(n_of(60.6), 60.0);  // rounds to 61, clamped
  EXPECT_EQ(n_of(11.2), 12.0);  // rounds to 11, clamped
  EXPECT_EQ(n_of(-1e300), 12.0);
  EXPECT_EQ(n_of(inf), 60.0);
  EXPECT_EQ(n_of(-inf), 12.0);
  EXPECT_TRUE(std::isnan(n_of(nan)));
  // Real genes are copied bit for bit, whatever integer neighbours do.
  EXPECT_EQ(p->decode(Eigen::Vector3d(0.123456789, 30.0, 0.0))[0], 0.123456789);
  EXPECT_EQ(p->decode(Eigen::Vector3d(7.5, 30.0, 0.0))[0], 7.5);  // outside its box: untouched

  const auto q = load(
      "[problem]\nobjective = \"n\"\n[[variable]]\nname = \"n\"\ntype = \"integer\"\nlower = "
      "-3\nupper = 3\n");
  const auto m_of = [&](double gene) { return q->decode(Eigen::VectorXd::Constant(1, gene))[0]; };
  EXPECT_EQ(m_of(-2.5), -2.0);  // tie: to even
  EXPECT_EQ(m_of(-1.5), -2.0);  // tie: to even
  EXPECT_EQ(m_of(-0.4), 0.0);
  EXPECT_EQ(m_of(-3.6), -3.0);
}

TEST(ProblemVariableTypes, DecodeMapsDiscreteIndicesToValues) {
  const auto p = load(three_kinds);
  const auto d_of = [&](double gene) { return p->decode(Eigen::Vector3d(0.0, 12.0, gene))[2]; };
  EXPECT_EQ(d_of(0.0), 10.0);
  EXPECT_EQ(d_of(0.49), 10.0);
  EXPECT_EQ(d_of(0.5), 10.0);  // tie: index 0 (even)
  EXPECT_EQ(d_of(0.51), 12.5);
  EXPECT_EQ(d_of(1.0), 12.5);
  EXPECT_EQ(d_of(1.5), 16.0);  // tie: index 2 (even)
  EXPECT_EQ(d_of(2.0), 16.0);
  EXPECT_EQ(d_of(-3.0), 10.0);  // clamped to index 0
  EXPECT_EQ(d_of(7.0), 16.0);   // clamped to index k - 1
  EXPECT_EQ(d_of(-inf), 10.0);
  EXPECT_EQ(d_of(inf), 16.0);
  EXPECT_TRUE(std::isnan(d_of(nan)));  // never an index
}

TEST(ProblemVariableTypes, DecodePointerFormMatchesAndWorksInPlace) {
  const auto p = load(three_kinds);
  const std::array<double, 3> genes{0.75, 41.5, 0.8};
  std::array<double, 3> x{};
  p->decode(genes.data(), x.data());
  const Eigen::VectorXd v = p->decode(Eigen::Vector3d(genes[0], genes[1], genes[2]));
  EXPECT_EQ(x[0], v[0]);
  EXPECT_EQ(x[1], v[1]);
  EXPECT_EQ(x[2], v[2]);
  EXPECT_EQ(x, (std::array<double, 3>{0.75, 42.0, 12.5}));
  std::array<double, 3> in_place = genes;
  p->decode(in_place.data(), in_place.data());
  EXPECT_EQ(in_place, x);
  EXPECT_THROW((void)p->decode(Eigen::Vector2d(1.0, 2.0)), std::invalid_argument);
}

// Every refusal names the file, the line of the offending field (or item) and the field.
void expect_error(const std::string& text, const std::string& line, const std::string& field,
                  const std::string& words) {
  const std::string e = error_of(text);
  EXPECT_NE(e.find("p.toml:" + line + ":"), std::string::npos) << e;
  EXPECT_NE(e.find("[[variable]] 'x' field '" + field + "'"), std::string::npos) << e;
  EXPECT_NE(e.find(words), std::string::npos) << e;
}

// Lines 1-4; the fields under test start at line 5.
const std::string head = "[problem]\nobjective = \"x\"\n[[variable]]\nname = \"x\"\n";

TEST(ProblemVariableTypes, IntegerBoundErrors) {
  // A fractional bound, literal or computed from parameters.
  expect_error(head + "type = \"integer\"\nlower = 1.5\nupper = 4\n", "6", "lower",
               "must be a whole number for type = \"integer\" (got 1.5)");
  expect_error("[parameters]\nn = 5\n" + head + "type = \"integer\"\nlower = 0\nupper = \"n/2\"\n",
               "9", "upper", "whole number");
  // Beyond 2^53 not every integer is a double.
  expect_error(head + "type = \"integer\"\nlower = -1e17\nupper = 0\n", "6", "lower", "2^53");
  // Whole, but not lower < upper.
  expect_error(head + "type = \"integer\"\nlower = 3\nupper = 3\n", "7", "upper", "lower < upper");
  // 'values' belongs to discrete variables only.
  expect_error(head + "type = \"integer\"\nlower = 0\nupper = 3\nvalues = [1, 2]\n", "8", "values",
               "only a variable with type = \"discrete\"");
  expect_error(head + "lower = 0\nupper = 3\nvalues = [1, 2]\n", "7", "values", "only");
}

TEST(ProblemVariableTypes, DiscreteValueErrors) {
  const std::string d = head + "type = \"discrete\"\n";  // line 5
  // lower/upper with a discrete variable: the GA searches the index.
  expect_error(d + "values = [1, 2]\nlower = 1\n", "7", "lower", "not allowed");
  expect_error(d + "upper = 2\nvalues = [1, 2]\n", "6", "upper", "not allowed");
  // Missing, not a list, empty, a single value.
  expect_error(d, "3", "values", "needs values = [");
  expect_error(d + "values = 3\n", "6", "values", "must be an array");
  expect_error(d + "values = []\n", "6", "values", "is empty");
  expect_error(d + "values = [4.0]\n", "6", "values", "at least two");
  // Unsorted and duplicate values: the line of the offending item.
  expect_error(d + "values = [\n  1.0,\n  3.0,\n  2.0,\n]\n", "9", "values",
               "item 3: 2 is less than item 2 (3); values must be strictly increasing");
  expect_error(d + "values = [1.0, 2.0, 2.0]\n", "6", "values", "item 3: 2 repeats item 2 (2)");
  // Non-finite or non-constant items.
  expect_error(d + "values = [1.0, nan]\n", "6", "values", "item 2: must be a finite number");
  expect_error(d + "values = [1.0, inf]\n", "6", "values", "item 2: must be a finite number");
  expect_error(d + "values = [1.0, \"x\"]\n", "6", "values",
               "item 2: 'x' is not a constant number");
  expect_error(d + "values = [1.0, [2.0]]\n", "6", "values", "item 2: must be a number");
  // Items may be constant expressions of parameters, like bounds.
  const auto p = load("[parameters]\nt = 2.5\n" + d + "values = [\"t\", \"2*t\", 8]\n");
  EXPECT_EQ(p->discrete_values()[0], (std::vector<double>{2.5, 5.0, 8.0}));
}

TEST(ProblemVariableTypes, UnknownTypeListsTheValidOnes) {
  expect_error(head + "type = \"int\"\nlower = 0\nupper = 1\n", "5", "type",
               "'int' is not a variable type (expected one of: real, integer, discrete)");
  expect_error(head + "type = 3\nlower = 0\nupper = 1\n", "5", "type",
               "must be a string (expected one of: real, integer, discrete)");
  // An unknown field still names the ones [[variable]] takes.
  const std::string e = error_of(head + "kind = \"integer\"\nlower = 0\nupper = 1\n");
  EXPECT_NE(e.find("p.toml:5"), std::string::npos) << e;
  EXPECT_NE(e.find("name, type, lower, upper, values"), std::string::npos) << e;
}

// Sandgren (1990), "Nonlinear integer and discrete programming in mechanical design
// optimization", J. Mech. Des. 112: f = (1/6.931 - x1 x2 / (x3 x4))^2, teeth in 12..60.
double gear_train_closed_form(double x1, double x2, double x3, double x4) {
  const double r = 1.0 / 6.931 - (x1 * x2) / (x3 * x4);
  return r * r;
}

TEST(ProblemVariableTypes, GearTrainExampleAtBestKnownTeeth) {
  const auto p = load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/gear_train.toml");
  ASSERT_EQ(p->dimension(), 4);
  EXPECT_EQ(p->variable_kinds(), std::vector<kind>(4, kind::integer));
  EXPECT_EQ(p->lower_bounds(), Eigen::Vector4d::Constant(12.0));
  EXPECT_EQ(p->upper_bounds(), Eigen::Vector4d::Constant(60.0));
  EXPECT_TRUE(p->constraints().empty());
  // Genes near the best-known teeth decode to them.
  const Eigen::VectorXd x = p->decode(Eigen::Vector4d(16.3, 18.6, 42.7, 49.4));
  EXPECT_EQ(x, Eigen::Vector4d(16, 19, 43, 49));
  const double closed = gear_train_closed_form(16, 19, 43, 49);
  // The published best value, 2.700857e-12, to its 7 digits.
  EXPECT_NEAR(closed, 2.700857e-12, 0.0000005e-12);
  // The tape's value: 1/6.931 - 304/2107 cancels to 1.6e-6, so compare relative to f itself.
  EXPECT_NEAR(p->objective(x), closed, 1e-9 * closed);
  // Swapping x1 with x2, or x3 with x4, gives the same train.
  EXPECT_NEAR(p->objective(Eigen::Vector4d(19, 16, 49, 43)), closed, 1e-9 * closed);
}

// The best-known teeth are the exact minimum: every one of the 49^4 = 5,764,801 integer points,
// decoded and evaluated through the compiled tape (the loop an optimiser runs, no allocation).
TEST(ProblemVariableTypes, GearTrainBestKnownIsTheExhaustiveMinimum) {
  const auto p = load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/gear_train.toml");
  std::vector<double> out(static_cast<std::size_t>(p->outputs()));
  std::vector<double> scratch(static_cast<std::size_t>(p->scratch_size()));
  std::array<double, 4> genes{};
  std::array<double, 4> x{};
  double best = inf;
  std::set<std::array<int, 4>> argmin;
  for (int a = 12; a <= 60; ++a) {
    for (int b = 12; b <= 60; ++b) {
      for (int c = 12; c <= 60; ++c) {
        for (int d = 12; d <= 60; ++d) {
          genes = {a + 0.25, b - 0.25, c + 0.25, d - 0.25};  // off the integers; decoding rounds
          p->decode(genes.data(), x.data());
          p->evaluate(x.data(), out.data(), scratch.data());
          const std::array<int, 4> teeth{a, b, c, d};
          if (out[0] < best * (1 - 1e-9)) {
            best = out[0];
            argmin = {teeth};
          } else if (out[0] <= best * (1 + 1e-9)) {
            argmin.insert(teeth);
          }
        }
      }
    }
  }
  EXPECT_NEAR(best, gear_train_closed_form(16, 19, 43, 49), 1e-9 * best);
  EXPECT_EQ(argmin, (std::set<std::array<int, 4>>{
                        {16, 19, 43, 49}, {16, 19, 49, 43}, {19, 16, 43, 49}, {19, 16, 49, 43}}));
}

// examples/cantilever_stock.toml: thickness b from stock, depth h real. For each stock size the
// least depth meeting stress and deflection is closed-form; the depth limit h <= 10 b rules out
// the sizes below 8 mm, and 8 mm gives the least area.
TEST(ProblemVariableTypes, CantileverStockExampleOptimumIsTheNextSizeUp) {
  const auto p = load_optimization_problem(std::string(KINEVO_EXAMPLES) + "/cantilever_stock.toml");
  ASSERT_EQ(p->dimension(), 2);
  EXPECT_EQ(p->variable_kinds(), (std::vector<kind>{kind::discrete, kind::real}));
  const std::vector<double> stock{5, 6, 8, 10, 12, 15, 20, 25};
  EXPECT_EQ(p->discrete_values()[0], stock);
  EXPECT_EQ(p->lower_bounds(), Eigen::Vector2d(0.0, 10.0));
  EXPECT_EQ(p->upper_bounds(), Eigen::Vector2d(7.0, 200.0));
  const double P = 1000, L = 1000, E = 210000, sigma_max = 160, delta_max = 5;
  double best_area = inf;
  double best_b = 0, best_h = 0;
  for (std::size_t i = 0; i < stock.size(); ++i) {
    const double b = stock[i];
    // sigma = 6 P L / (b h^2) and delta = 4 P L^3 / (E b h^3) at their limits.
    const double h = std::max(std::sqrt(6 * P * L / (b * sigma_max)),
                              std::cbrt(4 * P * L * L * L / (E * b * delta_max)));
    const Eigen::VectorXd x = p->decode(Eigen::Vector2d(static_cast<double>(i), h));
    EXPECT_EQ(x[0], b);
    const bool feasible = h <= 10 * b;
    if (feasible) {
      EXPECT_LT(p->max_violation(x), 1e-12) << "b = " << b;
      if (b * h < best_area) {
        best_area = b * h;
        best_b = b;
        best_h = h;
      }
    } else {
      EXPECT_GT(p->max_violation(x), 0.1) << "b = " << b;
    }
  }
  EXPECT_EQ(best_b, 8.0);
  EXPECT_NEAR(best_h, 78.0897, 1e-4);
  EXPECT_NEAR(best_area, 624.717, 1e-3);
  // At the optimum the deflection limit is active and the others are slack.
  const Eigen::VectorXd x = p->decode(Eigen::Vector2d(2.2, best_h));
  EXPECT_NEAR(p->objective(x), best_area, 1e-9 * best_area);
  const Eigen::VectorXd c = p->constraint_values(x);
  EXPECT_LT(c[0], -0.1);
  EXPECT_NEAR(c[1], 0.0, 1e-12);
  EXPECT_LT(c[2], -0.01);
}

}  // namespace
}  // namespace kinevo::symbolic
