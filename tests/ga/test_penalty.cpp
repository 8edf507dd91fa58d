// The one penalty concept: fixed, increasing and multiplier kinds, named weights, the penalty
// term, and the two uses it must fit besides the Gauss solver (tests/gauss): a four-bar GA
// (weight 1, growth per run) and an expression problem (named constraints with weights).
#include "kinevo/ga/penalty.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ga_test_support.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {
namespace {

using testing::inf;
using testing::nan;

const std::vector<std::string> names{"circle", "line"};

TEST(Penalty, FourBarStyleGrowingWeightWithoutCap) {
  penalty_options o;
  o.kind = penalty_kind::increasing;
  o.weight = 1.0;
  o.growth = 4.0;  // per range run
  penalty pen(o, {}, 3);
  EXPECT_EQ(pen.weights(), Eigen::Vector3d::Ones());
  for (int run = 0; run < 3; ++run) pen.after_run(Eigen::Vector3d(1.0, 0.0, 2.0));
  EXPECT_EQ(pen.weights(), Eigen::Vector3d::Constant(64.0));
  EXPECT_EQ(pen.multipliers(), Eigen::Vector3d::Zero());
  EXPECT_DOUBLE_EQ(pen.term(Eigen::Vector3d(0.5, 0.0, 0.0)), 16.0);
  pen.restart_weights();
  EXPECT_EQ(pen.weights(), Eigen::Vector3d::Ones());
}

TEST(Penalty, ExpressionProblemStyleNamedWeights) {
  penalty_options o;  // fixed
  o.weight = 100.0;
  o.named_weights["line"] = 1e4;
  penalty pen(o, names, 2);
  EXPECT_EQ(pen.weights(), Eigen::Vector2d(100.0, 1e4));
  pen.after_run(Eigen::Vector2d(1.0, 1.0));
  EXPECT_EQ(pen.weights(), Eigen::Vector2d(100.0, 1e4));
  EXPECT_DOUBLE_EQ(pen.term(Eigen::Vector2d(0.1, -0.01)), 100.0 * 0.01 + 1e4 * 1e-4);
}

TEST(Penalty, MultipliersFollowTheFirstOrderUpdateAndEnterTheTerm) {
  penalty_options o;
  o.kind = penalty_kind::multipliers;
  o.weight = 3.0;
  penalty pen(o, names, 2);
  pen.after_run(Eigen::Vector2d(0.5, -1.0));  // lambda += 2 W r
  EXPECT_EQ(pen.multipliers(), Eigen::Vector2d(3.0, -6.0));
  EXPECT_DOUBLE_EQ(pen.term(Eigen::Vector2d(1.0, 1.0)), 3.0 - 6.0 + 3.0 + 3.0);
  pen.set_multipliers(Eigen::Vector2d(1.0, 2.0));
  EXPECT_EQ(pen.multipliers(), Eigen::Vector2d(1.0, 2.0));
  pen.set_multipliers(Eigen::Vector3d(1.0, 2.0, 3.0));  // wrong size: ignored
  EXPECT_EQ(pen.multipliers(), Eigen::Vector2d(1.0, 2.0));
  pen.set_weight_scales(Eigen::Vector2d(2.0, 0.5));
  EXPECT_EQ(pen.weights(), Eigen::Vector2d(6.0, 1.5));
  EXPECT_THROW(pen.set_weight_scales(Eigen::Vector2d(1.0, 0.0)), std::invalid_argument);
}

TEST(Penalty, KindsRoundTripThroughTheirNames) {
  for (auto k : {penalty_kind::fixed, penalty_kind::increasing, penalty_kind::multipliers}) {
    EXPECT_EQ(parse_penalty_kind(to_string(k)), k);
  }
  try {
    parse_penalty_kind("quadratic");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("fixed, increasing or multipliers"), std::string::npos);
  }
}

TEST(Penalty, EveryInvalidFieldIsNamed) {
  const auto field_of = [](const penalty_options& o) -> std::string {
    try {
      o.validate();
    } catch (const io::option_error& e) {
      return e.field();
    }
    return "";
  };
  for (const double bad : {0.0, -1.0, nan, inf}) {
    penalty_options o;
    o.weight = bad;
    EXPECT_EQ(field_of(o), "penalty.weight") << bad;
    penalty_options named;
    named.named_weights["line"] = bad;
    EXPECT_EQ(field_of(named), "penalty.named_weights[line]") << bad;
  }
  penalty_options inc;
  inc.kind = penalty_kind::increasing;
  EXPECT_EQ(field_of(inc), "");  // infinite cap: no cap
  for (const double bad : {1.0, 0.5, nan, inf}) {
    inc.growth = bad;
    EXPECT_EQ(field_of(inc), "penalty.growth") << bad;
  }
  inc.growth = 2.0;
  for (const double bad : {0.0, -1.0, nan}) {
    inc.max_weight = bad;
    EXPECT_EQ(field_of(inc), "penalty.max_weight") << bad;
  }
  // A named weight for no constraint lists the constraints.
  penalty_options o;
  o.named_weights["ellipse"] = 1.0;
  try {
    penalty pen(o, names, 2);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("circle, line"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kinevo::ga
