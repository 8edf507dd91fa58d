// The constraint-handling concept (ga/constraint_handling.hpp): names, the epsilon-level order
// of Takahama and Sakai ("Constrained optimization by the epsilon constrained differential
// evolution with gradient-based mutation and feasible elites", CEC 2006, eqs. 5-8) and its
// options.
#include "kinevo/ga/constraint_handling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ga_test_support.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {
namespace {

using testing::inf;
using testing::nan;

TEST(ConstraintHandling, NamesRoundTripAndAnUnknownNameListsTheChoices) {
  for (const auto c : {constraint_handling::penalty, constraint_handling::multipliers,
                       constraint_handling::feasibility, constraint_handling::epsilon}) {
    EXPECT_EQ(parse_constraint_handling(to_string(c)), c);
  }
  EXPECT_EQ(to_string(constraint_handling::feasibility), "feasibility");
  EXPECT_EQ(to_string(constraint_handling::epsilon), "epsilon");
  try {
    parse_constraint_handling("deb");
    FAIL() << "an unknown name was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'deb'"), std::string::npos) << what;
    for (const char* name : {"penalty", "multipliers", "feasibility", "epsilon"}) {
      EXPECT_NE(what.find(name), std::string::npos) << name << " missing from: " << what;
    }
  }
  EXPECT_THROW(parse_constraint_handling("Epsilon"), std::invalid_argument);
  EXPECT_THROW(parse_constraint_handling(""), std::invalid_argument);
  // Only feasibility and epsilon compare violations; penalties live in the value.
  EXPECT_FALSE(compares_violations(constraint_handling::penalty));
  EXPECT_FALSE(compares_violations(constraint_handling::multipliers));
  EXPECT_TRUE(compares_violations(constraint_handling::feasibility));
  EXPECT_TRUE(compares_violations(constraint_handling::epsilon));
}

TEST(ConstraintHandling, PrecedesIsDebsRulesWithAnEpsilonLevel) {
  // precedes(fa, va, fb, vb, eps)
  // Feasible beats infeasible whatever the values.
  EXPECT_TRUE(precedes(100.0, 0.0, -100.0, 0.5, 0.0));
  EXPECT_FALSE(precedes(-100.0, 0.5, 100.0, 0.0, 0.0));
  // Two infeasible: the smaller violation wins whatever the values.
  EXPECT_TRUE(precedes(50.0, 0.1, -50.0, 0.2, 0.0));
  EXPECT_FALSE(precedes(-50.0, 0.2, 50.0, 0.1, 0.0));
  // Two feasible: the smaller value.
  EXPECT_TRUE(precedes(1.0, 0.0, 2.0, 0.0, 0.0));
  EXPECT_FALSE(precedes(2.0, 0.0, 1.0, 0.0, 0.0));
  // Equal violations (infeasible): by value.
  EXPECT_TRUE(precedes(1.0, 0.3, 2.0, 0.3, 0.0));
  // Violations up to eps count as feasible: then the value decides ...
  EXPECT_TRUE(precedes(1.0, 0.05, 2.0, 0.0, 0.1));
  EXPECT_FALSE(precedes(2.0, 0.0, 1.0, 0.05, 0.1));
  EXPECT_TRUE(precedes(1.0, 0.1, 2.0, 0.0, 0.1));  // eps itself is within the level
  // ... and above eps the violation still decides.
  EXPECT_FALSE(precedes(1.0, 0.2, 2.0, 0.0, 0.1));
  EXPECT_TRUE(precedes(2.0, 0.0, 1.0, 0.2, 0.1));
  // eps = 0 is exactly Deb's rules: the same verdicts as the cases above without a level.
  EXPECT_FALSE(precedes(1.0, 0.05, 2.0, 0.0, 0.0));
  EXPECT_TRUE(precedes(2.0, 0.0, 1.0, 0.05, 0.0));
  // Ties (same value, same counted violation) precede neither way: a strict order.
  EXPECT_FALSE(precedes(1.0, 0.0, 1.0, 0.0, 0.0));
  EXPECT_FALSE(precedes(1.0, 0.3, 1.0, 0.3, 0.0));
  EXPECT_FALSE(precedes(1.0, 0.01, 1.0, 0.02, 0.1));  // both within eps: a tie
  EXPECT_FALSE(precedes(1.0, 0.02, 1.0, 0.01, 0.1));
  // Without violations it is the order of values.
  for (const double eps : {0.0, 1.0}) {
    EXPECT_TRUE(precedes(-3.0, 0.0, -2.0, 0.0, eps));
    EXPECT_FALSE(precedes(-2.0, 0.0, -3.0, 0.0, eps));
  }
}

TEST(ConstraintHandling, EpsilonLevelFallsFromEps0ToZeroAtUntil) {
  epsilon_options o;  // theta 0.2, cp 5, until 0.2
  const double eps0 = 3.5;
  EXPECT_EQ(epsilon_level(o, eps0, 0.0), eps0);
  EXPECT_EQ(epsilon_level(o, eps0, o.until), 0.0);
  EXPECT_EQ(epsilon_level(o, eps0, 0.5), 0.0);
  EXPECT_EQ(epsilon_level(o, eps0, 1.0), 0.0);
  // Takahama and Sakai, eq. 7: eps0 (1 - t / T_c)^cp.
  EXPECT_DOUBLE_EQ(epsilon_level(o, eps0, 0.1), eps0 * std::pow(0.5, 5.0));
  double last = inf;
  for (int k = 0; k <= 100; ++k) {
    const double e = epsilon_level(o, eps0, k / 100.0);
    EXPECT_GE(e, 0.0) << k;
    EXPECT_LE(e, last) << k;  // monotone non-increasing
    last = e;
  }
  // No violation at the start: no level.
  EXPECT_EQ(epsilon_level(o, 0.0, 0.0), 0.0);
  // cp = 0: constant eps0 until T_c, 0 from then on.
  epsilon_options flat;
  flat.exponent = 0.0;
  flat.until = 0.5;
  for (const double t : {0.0, 0.1, 0.25, 0.49}) EXPECT_EQ(epsilon_level(flat, eps0, t), eps0) << t;
  EXPECT_EQ(epsilon_level(flat, eps0, 0.5), 0.0);
  EXPECT_EQ(epsilon_level(flat, eps0, 0.9), 0.0);
  // until = 1: positive until the very end.
  epsilon_options whole;
  whole.until = 1.0;
  EXPECT_GT(epsilon_level(whole, eps0, 0.99), 0.0);
  EXPECT_EQ(epsilon_level(whole, eps0, 1.0), 0.0);
}

std::string epsilon_field_of(const epsilon_options& o) {
  try {
    o.validate();
  } catch (const io::option_error& e) {
    return e.field();
  }
  return "";
}

TEST(ConstraintHandling, EpsilonOptionsNameEveryInvalidField) {
  EXPECT_EQ(epsilon_field_of(epsilon_options{}), "");
  const auto spoiled = [](auto spoil) {
    epsilon_options o;
    spoil(o);
    return epsilon_field_of(o);
  };
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.quantile = -0.1; }), "epsilon_quantile");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.quantile = 1.5; }), "epsilon_quantile");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.quantile = nan; }), "epsilon_quantile");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.exponent = -1.0; }), "epsilon_exponent");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.exponent = inf; }), "epsilon_exponent");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.until = 0.0; }), "epsilon_until");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.until = 1.01; }), "epsilon_until");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.until = nan; }), "epsilon_until");
  // The ends of the ranges are allowed.
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.quantile = 0.0, o.exponent = 0.0; }), "");
  EXPECT_EQ(spoiled([](epsilon_options& o) { o.quantile = 1.0, o.until = 1.0; }), "");
}

}  // namespace
}  // namespace kinevo::ga
