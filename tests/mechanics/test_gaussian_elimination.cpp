// Gaussian elimination with row and full pivoting, the general solution of rank-deficient
// systems and Crout's LU against Haug, Computer-Aided Kinematics and Dynamics of Mechanical
// Systems, Examples 4.4.1-4.4.5, and against Eigen's FullPivLU on random matrices.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/kinematics/detail/gaussian_elimination.hpp"

namespace kinevo::mechanics {
namespace {

Eigen::MatrixXd matrix(std::initializer_list<std::initializer_list<double>> rows) {
  Eigen::MatrixXd a(static_cast<Eigen::Index>(rows.size()),
                    static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& r : rows) {
    Eigen::Index j = 0;
    for (double v : r) a(i, j++) = v;
    ++i;
  }
  return a;
}

Eigen::VectorXd vector(std::initializer_list<double> v) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (double e : v) x[i++] = e;
  return x;
}

elimination_options with(pivoting p) {
  elimination_options o;
  o.pivot = p;
  return o;
}

// The factors reproduce A: P A Q = L U.
void expect_factors(const Eigen::MatrixXd& a, const elimination_result& e) {
  Eigen::MatrixXd paq(a.rows(), a.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      paq(i, j) =
          a(e.row_order[static_cast<std::size_t>(i)], e.column_order[static_cast<std::size_t>(j)]);
    }
  }
  // Rows past the rank are zero after elimination only to the threshold.
  EXPECT_LT((paq - e.lower * e.upper).cwiseAbs().maxCoeff(), 1e-9 * (1 + a.cwiseAbs().maxCoeff()));
}

TEST(GaussianElimination, Example441) {
  const Eigen::MatrixXd a = matrix({{3, 1, -1}, {-1, 2, 1}, {2, -3, 1}});
  const Eigen::VectorXd b = vector({2, 6, -1});
  for (pivoting p : {pivoting::row, pivoting::full}) {
    const linear_solution s = solve_linear(a, b, with(p));
    EXPECT_EQ(s.rank, 3);
    EXPECT_TRUE(s.consistent);
    EXPECT_TRUE(s.free.empty());
    EXPECT_LT((s.particular - vector({1, 2, 3})).norm(), 1e-12);
    expect_factors(a, eliminate(a, with(p)));
  }
}

TEST(GaussianElimination, Example442RowPivoting) {
  const Eigen::MatrixXd a = matrix({{4, -3, 5, 2}, {-3, 1, 1, -6}, {5, -5, 10, 0}, {2, -3, 9, -7}});
  const Eigen::VectorXd b = vector({-1.5, 9, 2.5, 13.5});
  const elimination_result e = eliminate(a, with(pivoting::row));
  EXPECT_EQ(e.rank, 4);
  EXPECT_EQ(e.row_order[0], 2);  // the largest entry of column 1 is 5, in row 3
  EXPECT_DOUBLE_EQ(e.pivots[0], 5.0);
  EXPECT_EQ(e.column_order, (std::vector<int>{0, 1, 2, 3}));  // row pivoting keeps columns
  expect_factors(a, e);
  const linear_solution s = solve_linear(a, b, with(pivoting::row));
  EXPECT_TRUE(s.consistent);
  EXPECT_LT((s.particular - vector({0.5, -1, -0.5, -2})).norm(), 1e-12);
}

TEST(GaussianElimination, Example443FullPivotingPivots) {
  const Eigen::MatrixXd a = matrix({{2, -1, 1}, {-1, 0, 2}, {1, 4, -2}});
  const Eigen::VectorXd b = vector({0, 5, -5});
  const elimination_result e = eliminate(a, with(pivoting::full));
  ASSERT_EQ(e.rank, 3);
  EXPECT_DOUBLE_EQ(e.pivots[0], 4.0);  // a_32, row 3 column 2
  EXPECT_EQ(e.row_order[0], 2);
  EXPECT_EQ(e.column_order[0], 1);
  EXPECT_DOUBLE_EQ(e.pivots[1], 2.25);  // a_11 - a_12 a_31 / a_32 = 2 + 1/4
  EXPECT_EQ(e.row_order[1], 0);
  EXPECT_EQ(e.column_order[1], 0);
  expect_factors(a, e);
  const linear_solution s = solve_linear(a, b, with(pivoting::full));
  EXPECT_TRUE(s.consistent);
  EXPECT_LT((s.particular - vector({-1, 0, 2})).norm(), 1e-12);
}

TEST(GaussianElimination, Example444RankTwoGeneralSolution) {
  const Eigen::MatrixXd a = matrix({{1, 0, 2, 1, 4}, {1, 1, 2, 0, 3}, {3, 1, 6, 2, 11}});
  const linear_solution s = solve_linear(a, vector({3, 2, 8}), with(pivoting::row));
  EXPECT_EQ(s.rank, 2);
  ASSERT_TRUE(s.consistent);
  // x1 = 3 - 2 x3 - x4 - 4 x5, x2 = -1 + x4 + x5 (Haug, Example 4.4.4).
  ASSERT_EQ(s.dependent, (std::vector<int>{0, 1}));
  ASSERT_EQ(s.free, (std::vector<int>{2, 3, 4}));
  EXPECT_NEAR(s.particular[0], 3.0, 1e-12);
  EXPECT_NEAR(s.particular[1], -1.0, 1e-12);
  const Eigen::MatrixXd expected = matrix({{-2, -1, -4}, {0, 1, 1}});
  EXPECT_LT((s.coefficients - expected).cwiseAbs().maxCoeff(), 1e-12);

  // Full pivoting chooses other dependent variables; its general solution still solves A x = b.
  const linear_solution f = solve_linear(a, vector({3, 2, 8}), with(pivoting::full));
  EXPECT_EQ(f.rank, 2);
  ASSERT_TRUE(f.consistent);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd x = f.particular;
    Eigen::VectorXd xf(static_cast<Eigen::Index>(f.free.size()));
    for (Eigen::Index k = 0; k < xf.size(); ++k) xf[k] = u(rng);
    const Eigen::VectorXd xd = f.coefficients * xf;
    for (std::size_t k = 0; k < f.free.size(); ++k) x[f.free[k]] = xf[static_cast<Eigen::Index>(k)];
    for (std::size_t k = 0; k < f.dependent.size(); ++k) {
      x[f.dependent[k]] += xd[static_cast<Eigen::Index>(k)];
    }
    EXPECT_LT((a * x - vector({3, 2, 8})).norm(), 1e-12);
  }

  for (pivoting p : {pivoting::row, pivoting::full}) {
    const linear_solution bad = solve_linear(a, vector({3, 2, 5}), with(p));
    EXPECT_EQ(bad.rank, 2);
    EXPECT_FALSE(bad.consistent);
    EXPECT_GT(bad.inconsistency, 1.0);
  }
}

TEST(GaussianElimination, Example445CroutLU) {
  const Eigen::MatrixXd a = matrix({{2, 1, -2}, {-1, 2.5, -5}, {3, -4.5, 0}});
  const lu_factors f = crout_lu(a);
  EXPECT_LT((f.lower - matrix({{1, 0, 0}, {-0.5, 1, 0}, {1.5, -2, 1}})).cwiseAbs().maxCoeff(),
            1e-14);
  EXPECT_LT((f.upper - matrix({{2, 1, -2}, {0, 3, -6}, {0, 0, -9}})).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((f.solve(vector({1, -9.5, 10.5})) - vector({2, -1, 1})).norm(), 1e-14);
  // The same factors by row elimination without swaps (Example 4.4.5 needs none).
  const elimination_result e = eliminate(a, with(pivoting::row));
  EXPECT_EQ(e.rank, 3);
  EXPECT_THROW(crout_lu(matrix({{0, 1}, {1, 0}})), io::option_error);
  EXPECT_THROW(crout_lu(matrix({{1, 2, 3}, {4, 5, 6}})), std::invalid_argument);
}

TEST(GaussianElimination, RandomMatricesAgreeWithEigenFullPivLU) {
  std::mt19937 rng(20261126);
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> dim(1, 9);
  for (int trial = 0; trial < 200; ++trial) {
    const int m = dim(rng), n = dim(rng);
    const int k = std::uniform_int_distribution<int>(0, std::min(m, n))(rng);
    Eigen::MatrixXd left(m, k), right(k, n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < k; ++j) left(i, j) = g(rng);
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < n; ++j) right(i, j) = g(rng);
    const Eigen::MatrixXd a = left * right;  // rank k almost surely
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
    for (pivoting p : {pivoting::row, pivoting::full}) {
      const elimination_result e = eliminate(a, with(p));
      EXPECT_EQ(e.rank, static_cast<int>(lu.rank())) << trial << " " << m << "x" << n;
      expect_factors(a, e);
      // A consistent right-hand side: b = A x0; both solve it.
      Eigen::VectorXd x0(n);
      for (int j = 0; j < n; ++j) x0[j] = g(rng);
      const Eigen::VectorXd b = a * x0;
      const linear_solution s = solve_linear(a, b, with(p));
      EXPECT_TRUE(s.consistent) << trial;
      EXPECT_LT((a * s.particular - b).norm(), 1e-8 * (1 + b.norm())) << trial;
      if (m == n && lu.isInvertible()) {
        EXPECT_LT((s.particular - lu.solve(b)).norm(), 1e-8 * (1 + x0.norm())) << trial;
      }
    }
  }
}

TEST(GaussianElimination, OptionsValidateThemselves) {
  elimination_options o;
  o.relative_tolerance = -1;
  EXPECT_THROW(o.validate(), io::option_error);
  o.relative_tolerance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(eliminate(Eigen::MatrixXd::Identity(2, 2), o), io::option_error);
  o.relative_tolerance = 1.0;
  try {
    o.validate();
    FAIL();
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "relative_tolerance");
  }
  EXPECT_THROW(solve_linear(Eigen::MatrixXd::Identity(2, 2), Eigen::VectorXd::Zero(3)),
               std::invalid_argument);
  // A NaN entry is refused, not skipped as a small pivot.
  Eigen::MatrixXd nan = Eigen::MatrixXd::Identity(2, 2);
  nan(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(eliminate(nan), std::invalid_argument);
  EXPECT_THROW(solve_linear(Eigen::MatrixXd::Identity(2, 2), nan.col(1)), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::mechanics
