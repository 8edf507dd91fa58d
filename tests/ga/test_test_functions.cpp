#include "kinevo/ga/test_functions.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace kinevo::ga {
namespace {

double at(const problem& p, const Eigen::VectorXd& x) {
  Eigen::VectorXd v(1);
  p.evaluate(x, v);
  return v[0];
}

TEST(TestFunctions, ZeroAtTheirMinimisers) {
  const int n = 7;
  EXPECT_EQ(at(sphere_function(n), Eigen::VectorXd::Zero(n)), 0.0);
  EXPECT_EQ(at(rosenbrock_function(n), Eigen::VectorXd::Ones(n)), 0.0);
  EXPECT_NEAR(at(rastrigin_function(n), Eigen::VectorXd::Zero(n)), 0.0, 1e-12);
  EXPECT_NEAR(at(ackley_function(n), Eigen::VectorXd::Zero(n)), 0.0, 1e-12);
  EXPECT_NEAR(at(griewank_function(n), Eigen::VectorXd::Zero(n)), 0.0, 1e-15);
  EXPECT_NEAR(at(schwefel_function(n), Eigen::VectorXd::Constant(n, 420.968746)), 0.0, 1e-5);
  const auto q = quadratic_function::four_variable();
  EXPECT_EQ(at(q, q.centre()), 0.0);
}

TEST(TestFunctions, ClosedFormsAtOtherPoints) {
  Eigen::VectorXd x(2);
  x << 1.0, 2.0;
  EXPECT_DOUBLE_EQ(at(sphere_function(2), x), 5.0);
  EXPECT_DOUBLE_EQ(at(rosenbrock_function(2), x), 100.0);  // 100 (2 - 1)^2 + 0
  // Rastrigin at integers: 10 n + sum x^2 - 10 n.
  EXPECT_NEAR(at(rastrigin_function(2), x), 5.0, 1e-12);
  // Griewank: 1 + 5/4000 - cos(1) cos(2 / sqrt 2).
  EXPECT_NEAR(at(griewank_function(2), x),
              1.0 + 5.0 / 4000.0 - std::cos(1.0) * std::cos(std::sqrt(2.0)), 1e-15);
  // Ackley at (1, 1): -20 e^-0.2 - e^1 + 20 + e = 20 - 20 e^-0.2.
  EXPECT_NEAR(at(ackley_function(2), Eigen::VectorXd::Ones(2)), 20.0 - 20.0 * std::exp(-0.2),
              1e-12);
}

TEST(TestFunctions, BatchEqualsOneByOne) {
  Eigen::MatrixXd x = Eigen::MatrixXd::Random(5, 9) * 3.0;
  for (const auto& name : test_function_names()) {
    const auto p = make_test_function(name, 5);
    Eigen::VectorXd batch(9);
    p->evaluate(x, batch);
    for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(batch[i], at(*p, x.col(i))) << name;
  }
  EXPECT_THROW(make_test_function("nope", 3), std::invalid_argument);
  EXPECT_THROW(make_test_function("rosenbrock", 1), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::ga
