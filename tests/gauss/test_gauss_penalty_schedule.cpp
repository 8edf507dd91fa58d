#include "kinevo/gauss/gauss_penalty_schedule.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using kinevo::gauss::gauss_penalty_options;
using kinevo::gauss::gauss_penalty_schedule;
using kinevo::gauss::penalty_kind;

const std::vector<std::string> rod_names{"rod1", "rod2"};

TEST(gauss_penalty_schedule, fixed_keeps_weights_and_no_multipliers) {
  gauss_penalty_options o;
  o.kind = penalty_kind::fixed;
  o.weight = 1e6;
  gauss_penalty_schedule s(o, rod_names, 2);
  s.after_run(Eigen::Vector2d(0.5, -1.0));
  EXPECT_EQ(s.weights(), Eigen::Vector2d(1e6, 1e6));
  EXPECT_EQ(s.multipliers(), Eigen::Vector2d::Zero());
}

TEST(gauss_penalty_schedule, increasing_grows_to_the_cap) {
  gauss_penalty_options o;
  o.kind = penalty_kind::increasing;
  o.weight = 10.0;
  o.growth = 100.0;
  o.max_weight = 1e5;
  gauss_penalty_schedule s(o, rod_names, 2);
  s.after_run(Eigen::Vector2d(1.0, 1.0));
  EXPECT_DOUBLE_EQ(s.weights()(0), 1000.0);
  s.after_run(Eigen::Vector2d(1.0, 1.0));
  EXPECT_DOUBLE_EQ(s.weights()(1), 1e5);
  s.restart_weights();
  EXPECT_DOUBLE_EQ(s.weights()(0), 10.0);
}

TEST(gauss_penalty_schedule, multipliers_follow_the_first_order_update) {
  gauss_penalty_options o;
  o.kind = penalty_kind::multipliers;
  o.weight = 3.0;
  o.named_weights["rod2"] = 5.0;
  gauss_penalty_schedule s(o, rod_names, 2);
  EXPECT_EQ(s.weights(), Eigen::Vector2d(3.0, 5.0));
  s.after_run(Eigen::Vector2d(0.5, -1.0));
  // lambda += 2 W r
  EXPECT_DOUBLE_EQ(s.multipliers()(0), 3.0);
  EXPECT_DOUBLE_EQ(s.multipliers()(1), -10.0);
}

TEST(gauss_penalty_schedule, bad_settings_say_what_to_fix) {
  gauss_penalty_options o;
  o.named_weights["rod3"] = 1.0;
  try {
    gauss_penalty_schedule s(o, rod_names, 2);
    FAIL() << "unknown constraint name accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rod1, rod2"), std::string::npos) << e.what();
  }
  gauss_penalty_options neg;
  neg.weight = -1.0;
  EXPECT_THROW(gauss_penalty_schedule(neg, rod_names, 2), std::invalid_argument);
  EXPECT_THROW(kinevo::gauss::parse_penalty_kind("quadratic"), std::invalid_argument);
  EXPECT_EQ(kinevo::gauss::parse_penalty_kind("multipliers"), penalty_kind::multipliers);
}

// The schedule is the GA's penalty concept with the Gauss defaults (issue 9, item 3).
TEST(gauss_penalty_schedule, is_the_ga_penalty_with_the_gauss_defaults) {
  const gauss_penalty_options o;
  const kinevo::ga::penalty_options& base = o;
  EXPECT_EQ(base.kind, penalty_kind::multipliers);
  EXPECT_EQ(base.weight, 1e6);
  EXPECT_EQ(base.growth, 10.0);
  EXPECT_EQ(base.max_weight, 1e12);
  EXPECT_FALSE(o.relative);
  gauss_penalty_schedule s(o, rod_names, 2);
  const kinevo::ga::penalty& p = s;
  EXPECT_EQ(p.weights(), Eigen::Vector2d(1e6, 1e6));
  s.set_row_scales(Eigen::Vector2d(2.0, 0.5));
  EXPECT_EQ(p.weights(), Eigen::Vector2d(2e6, 5e5));
  EXPECT_EQ(kinevo::gauss::to_string(penalty_kind::increasing), "increasing");
}

}  // namespace
