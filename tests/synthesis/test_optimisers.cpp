#include <gtest/gtest.h>

#include <cmath>

#include "kinevo/synthesis/common/interior_penalty.hpp"

namespace ks = kinevo::synthesis;

// min (x - 2)^2 + (y - 1)^2 subject to 1 - x^2 - y^2 > 0: the answer is the unit circle's point
// towards (2, 1). Started infeasible, so phase 1 must find the interior itself.
TEST(InteriorPenalty, ConvergesToTheActiveConstraint) {
  ks::penalty_problem p;
  p.dimension = 2;
  p.objective = [](const Eigen::VectorXd& x, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    if (g) *g = 2.0 * (x - Eigen::Vector2d(2, 1));
    if (h) *h = 2.0 * Eigen::Matrix2d::Identity();
    return (x - Eigen::Vector2d(2, 1)).squaredNorm();
  };
  p.constraints.push_back([](const Eigen::VectorXd& x, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    if (g) *g = -2.0 * x;
    if (h) *h = -2.0 * Eigen::Matrix2d::Identity();
    return 1.0 - x.squaredNorm();
  });
  const auto r = ks::minimise_interior_penalty(p, Eigen::Vector2d(3.0, 3.0));
  EXPECT_GT(ks::constraint_values(p, r.start).minCoeff(), 0.0);
  const Eigen::Vector2d exact = Eigen::Vector2d(2, 1).normalized();
  EXPECT_LT((r.x - exact).norm(), 1e-4);
  EXPECT_GT(r.constraints.minCoeff(), 0.0);
  // Extrapolation to r -> 0 must beat the last stage (r = 1e-6) when it is used.
  if (r.extrapolated) {
    EXPECT_LE(r.objective, r.stages.back().objective);
  }
}
