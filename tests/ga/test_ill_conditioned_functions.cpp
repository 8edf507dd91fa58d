// The ill-conditioned and rotated test functions against their definitions: value 0 at the
// optimum x = 0, the closed-form values along chosen directions, and an orthogonal rotation.
#include "kinevo/ga/detail/ill_conditioned_functions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "ga_test_support.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace kinevo::ga {
namespace {

using testing::value_at;

TEST(IllConditionedFunctions, FixedRotationIsOrthogonalAndDeterministic) {
  for (const int n : {1, 2, 5, 20, 50}) {
    const Eigen::MatrixXd q = fixed_rotation(n);
    EXPECT_LT((q.transpose() * q - Eigen::MatrixXd::Identity(n, n)).norm(), 1e-12) << n;
    EXPECT_EQ(fixed_rotation(n), q);
  }
  // Dense: it mixes every variable (no zero entry).
  EXPECT_GT(fixed_rotation(20).cwiseAbs().minCoeff(), 0.0);
}

TEST(IllConditionedFunctions, OptimaAndClosedForms) {
  const int n = 6;
  for (const char* name : {"ellipsoid", "double_sum", "rotated_ellipsoid", "rotated_rastrigin"}) {
    const auto p = make_test_function(name, n);
    EXPECT_EQ(p->name(), name);
    EXPECT_EQ(value_at(*p, Eigen::VectorXd::Zero(n)), 0.0) << name;
    // Strictly worse at a small step from the optimum in every coordinate direction.
    for (int i = 0; i < n; ++i) {
      EXPECT_GT(value_at(*p, 1e-3 * Eigen::VectorXd::Unit(n, i)), 0.0) << name << " " << i;
    }
    EXPECT_TRUE((p->lower_bounds().array() < 0.0).all() && (p->upper_bounds().array() > 0.0).all());
  }
  ellipsoid_function e(n);
  double_sum_function s(n);
  for (int i = 0; i < n; ++i) {
    // sum_k k x_k^2 at e_i is i + 1; the double sum at e_i counts the n - i partial sums
    // containing x_i.
    EXPECT_DOUBLE_EQ(value_at(e, Eigen::VectorXd::Unit(n, i)), i + 1.0);
    EXPECT_DOUBLE_EQ(value_at(s, Eigen::VectorXd::Unit(n, i)), n - i);
  }
  // Along the rotated axes Q^T e_i: the weights 1e6^(i/(n-1)), condition number 1e6.
  const Eigen::MatrixXd q = fixed_rotation(n);
  rotated_ellipsoid_function re(n);
  EXPECT_NEAR(value_at(re, q.transpose() * Eigen::VectorXd::Unit(n, 0)), 1.0, 1e-9);
  EXPECT_NEAR(value_at(re, q.transpose() * Eigen::VectorXd::Unit(n, n - 1)), 1e6, 1e-3);
  // Rotated Rastrigin is Rastrigin of Q x.
  rotated_rastrigin_function rr(n);
  rastrigin_function r(n);
  const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -2.0, 3.0);
  EXPECT_NEAR(value_at(rr, x), value_at(r, q * x), 1e-11);
}

}  // namespace
}  // namespace kinevo::ga
