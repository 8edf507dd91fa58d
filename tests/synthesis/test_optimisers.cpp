#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kinevo/synthesis/common/damped_newton.hpp"
#include "kinevo/synthesis/common/interior_penalty.hpp"
#include "kinevo/synthesis/common/least_squares.hpp"

namespace ks = kinevo::synthesis;

TEST(DampedNewton, SolvesASystem) {
  // x^2 + y^2 = 4, x y = 1 from a far start; checked against the closed form.
  const ks::system_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                   Eigen::MatrixXd* j) {
    r.resize(2);
    r << x(0) * x(0) + x(1) * x(1) - 4.0, x(0) * x(1) - 1.0;
    if (j) {
      j->resize(2, 2);
      *j << 2 * x(0), 2 * x(1), x(1), x(0);
    }
    return true;
  };
  const auto r = ks::damped_newton(f, Eigen::Vector2d(10.0, 0.5));
  ASSERT_EQ(r.status, ks::newton_status::converged);
  // x^2 = 2 +- sqrt(3).
  EXPECT_NEAR(r.x(0) * r.x(0), 2.0 + std::sqrt(3.0), 1e-9);
}

TEST(DampedNewton, ReportsSingularJacobianAndDivergence) {
  // Haug's example of no root, in spirit: x^2 + 1 = 0 has none; start at the stationary point.
  const ks::system_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                   Eigen::MatrixXd* j) {
    r.resize(1);
    r << x(0) * x(0) + 1.0;
    if (j) {
      j->resize(1, 1);
      (*j)(0, 0) = 2 * x(0);
    }
    return true;
  };
  EXPECT_EQ(ks::damped_newton(f, Eigen::VectorXd::Zero(1)).status,
            ks::newton_status::singular_jacobian);
  const auto r = ks::damped_newton(f, Eigen::VectorXd::Constant(1, 3.0));
  EXPECT_FALSE(r.status == ks::newton_status::converged);
}

TEST(LeastSquares, MatchesCompleteOrthogonalDecomposition) {
  Eigen::MatrixXd a(5, 3);
  a << 1, 2, 3, 4, 5, 6, 7, 8, 10, 1, 0, 1, 2, 1, 0;
  Eigen::VectorXd b(5);
  b << 1, 2, 3, 4, 5;
  const auto r = ks::linear_least_squares(a, b);
  const Eigen::VectorXd ref = a.completeOrthogonalDecomposition().solve(b);
  EXPECT_LT((r.x - ref).norm(), 1e-12);
  EXPECT_NEAR(r.residual_norm, (a * ref - b).norm(), 1e-12);
  Eigen::MatrixXd rank_def = a;
  rank_def.col(2) = rank_def.col(0) + rank_def.col(1);
  // Rank deficient: a failed result naming the rank, not an exception (docs/architecture.md).
  const auto d = ks::linear_least_squares(rank_def, b);
  EXPECT_FALSE(d.summary.usable());
  EXPECT_EQ(d.summary.status(), "rank_deficient");
  EXPECT_NE(d.summary.message.find("rank deficient (rank 2 of 3)"), std::string::npos)
      << d.summary.message;
  EXPECT_TRUE(r.summary.usable());
}

TEST(LeastSquares, MinimumNorm) {
  Eigen::MatrixXd a(2, 4);
  a << 1, 2, 0, 1, 0, 1, 1, 3;
  const Eigen::Vector2d b(1, 2);
  const Eigen::VectorXd x = ks::minimum_norm_solution(a, b).value();
  EXPECT_LT((a * x - b).norm(), 1e-13);
  const Eigen::VectorXd ref = a.completeOrthogonalDecomposition().solve(b);  // pseudo-inverse
  EXPECT_LT((x - ref).norm(), 1e-12);
  // Rank deficient (row 2 = 2 row 1): no unique least-norm solution, no value.
  Eigen::MatrixXd dependent(2, 4);
  dependent << 1, 2, 0, 1, 2, 4, 0, 2;
  EXPECT_FALSE(ks::minimum_norm_solution(dependent, b).has_value());
}

TEST(LeastSquares, GaussNewtonFitsAnExponential) {
  // y = 2 exp(-0.5 t) exactly: zero-residual fit.
  const ks::residual_function f = [](const Eigen::VectorXd& p, Eigen::VectorXd& r,
                                     Eigen::MatrixXd* j) {
    r.resize(6);
    if (j) j->resize(6, 2);
    for (int i = 0; i < 6; ++i) {
      const double t = i * 0.5, e = std::exp(p(1) * t);
      r(i) = p(0) * e - 2.0 * std::exp(-0.5 * t);
      if (j) (*j)(i, 0) = e, (*j)(i, 1) = p(0) * t * e;
    }
  };
  const auto r = ks::gauss_newton(f, Eigen::Vector2d(1.0, 0.0));
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_NEAR(r.x(0), 2.0, 1e-9);
  EXPECT_NEAR(r.x(1), -0.5, 1e-9);
}

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

TEST(LeastSquares, NonFiniteOrEmptySystemsDoNotCrash) {
  // An empty system (no violated row) used to reach maxCoeff() of an empty diagonal: SIGSEGV.
  const Eigen::VectorXd x0 =
      ks::minimum_norm_solution(Eigen::MatrixXd(0, 3), Eigen::VectorXd(0)).value();
  EXPECT_EQ(x0.size(), 3);
  EXPECT_EQ(x0.norm(), 0.0);
  Eigen::MatrixXd a(2, 4);
  a << 1, 2, 0, 1, 0, 1, 1, 3;
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Eigen::MatrixXd a_bad = a;
    a_bad(1, 2) = bad;
    EXPECT_THROW((void)ks::minimum_norm_solution(a_bad, Eigen::Vector2d(1, 2)),
                 std::invalid_argument);
    EXPECT_THROW((void)ks::minimum_norm_solution(a, Eigen::Vector2d(bad, 2)),
                 std::invalid_argument);
    EXPECT_THROW((void)ks::linear_least_squares(a_bad.transpose(), Eigen::Vector4d(1, 2, 3, 4)),
                 std::invalid_argument);
  }
}
