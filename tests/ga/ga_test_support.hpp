// Helpers shared by several test files of test_ga (one definition, so that the files can be
// compiled together in a unity batch).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cstdio>
#include <limits>
#include <string>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/problem.hpp"

namespace kinevo::ga::testing {

inline const double nan = std::numeric_limits<double>::quiet_NaN();
inline const double inf = std::numeric_limits<double>::infinity();

// A stop after `g` generations.
inline termination generations(long long g) {
  termination t;
  t.max_generations = g;
  return t;
}

// Two runs with the same best point, value, island and counts (bit for bit).
inline void expect_same(const run_result& a, const run_result& b) {
  ASSERT_EQ(a.best_x.size(), b.best_x.size());
  for (int j = 0; j < a.best_x.size(); ++j) EXPECT_EQ(a.best_x[j], b.best_x[j]) << j;
  EXPECT_EQ(a.best_value, b.best_value);
  EXPECT_EQ(a.best_island, b.best_island);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.generations, b.generations);
}

// A double written exactly (hexadecimal floating point, %a).
inline std::string hexd(double v) {
  char b[40];
  std::snprintf(b, sizeof b, "%a", v);
  return b;
}

// The objective of one point.
inline double value_at(const problem& p, const Eigen::VectorXd& x) {
  Eigen::VectorXd v(1);
  p.evaluate(x, v);
  return v[0];
}

}  // namespace kinevo::ga::testing
