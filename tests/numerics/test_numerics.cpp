#include <gtest/gtest.h>

#include <Eigen/QR>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/numerics/armijo_line_search.hpp"
#include "kinevo/numerics/backtracking.hpp"
#include "kinevo/numerics/damped_newton.hpp"
#include "kinevo/numerics/gauss_newton.hpp"
#include "kinevo/numerics/least_squares.hpp"
#include "kinevo/numerics/newton_raphson.hpp"

namespace kn = kinevo::numerics;

TEST(DampedNewton, SolvesASystem) {
  // x^2 + y^2 = 4, x y = 1 from a far start; checked against the closed form.
  const kn::system_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                   Eigen::MatrixXd* j) {
    r.resize(2);
    r << x(0) * x(0) + x(1) * x(1) - 4.0, x(0) * x(1) - 1.0;
    if (j) {
      j->resize(2, 2);
      *j << 2 * x(0), 2 * x(1), x(1), x(0);
    }
    return true;
  };
  const auto r = kn::damped_newton(f, Eigen::Vector2d(10.0, 0.5));
  ASSERT_EQ(r.status, kn::newton_status::converged);
  // x^2 = 2 +- sqrt(3).
  EXPECT_NEAR(r.x(0) * r.x(0), 2.0 + std::sqrt(3.0), 1e-9);
}

TEST(DampedNewton, ReportsSingularJacobianAndDivergence) {
  // Haug's example of no root, in spirit: x^2 + 1 = 0 has none; start at the stationary point.
  const kn::system_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                   Eigen::MatrixXd* j) {
    r.resize(1);
    r << x(0) * x(0) + 1.0;
    if (j) {
      j->resize(1, 1);
      (*j)(0, 0) = 2 * x(0);
    }
    return true;
  };
  EXPECT_EQ(kn::damped_newton(f, Eigen::VectorXd::Zero(1)).status,
            kn::newton_status::singular_jacobian);
  const auto r = kn::damped_newton(f, Eigen::VectorXd::Constant(1, 3.0));
  EXPECT_FALSE(r.status == kn::newton_status::converged);
}

TEST(LeastSquares, MatchesCompleteOrthogonalDecomposition) {
  Eigen::MatrixXd a(5, 3);
  a << 1, 2, 3, 4, 5, 6, 7, 8, 10, 1, 0, 1, 2, 1, 0;
  Eigen::VectorXd b(5);
  b << 1, 2, 3, 4, 5;
  const auto r = kn::linear_least_squares(a, b);
  const Eigen::VectorXd ref = a.completeOrthogonalDecomposition().solve(b);
  EXPECT_LT((r.x - ref).norm(), 1e-12);
  EXPECT_NEAR(r.residual_norm, (a * ref - b).norm(), 1e-12);
  Eigen::MatrixXd rank_def = a;
  rank_def.col(2) = rank_def.col(0) + rank_def.col(1);
  // Rank deficient: a failed result naming the rank, not an exception (docs/architecture.md).
  const auto d = kn::linear_least_squares(rank_def, b);
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
  const Eigen::VectorXd x = kn::minimum_norm_solution(a, b).value();
  EXPECT_LT((a * x - b).norm(), 1e-13);
  const Eigen::VectorXd ref = a.completeOrthogonalDecomposition().solve(b);  // pseudo-inverse
  EXPECT_LT((x - ref).norm(), 1e-12);
  // Rank deficient (row 2 = 2 row 1): no unique least-norm solution, no value.
  Eigen::MatrixXd dependent(2, 4);
  dependent << 1, 2, 0, 1, 2, 4, 0, 2;
  EXPECT_FALSE(kn::minimum_norm_solution(dependent, b).has_value());
}

TEST(LeastSquares, GaussNewtonFitsAnExponential) {
  // y = 2 exp(-0.5 t) exactly: zero-residual fit.
  const kn::residual_function f = [](const Eigen::VectorXd& p, Eigen::VectorXd& r,
                                     Eigen::MatrixXd* j) {
    r.resize(6);
    if (j) j->resize(6, 2);
    for (int i = 0; i < 6; ++i) {
      const double t = i * 0.5, e = std::exp(p(1) * t);
      r(i) = p(0) * e - 2.0 * std::exp(-0.5 * t);
      if (j) (*j)(i, 0) = e, (*j)(i, 1) = p(0) * t * e;
    }
  };
  const auto r = kn::gauss_newton(f, Eigen::Vector2d(1.0, 0.0));
  ASSERT_EQ(r.status, kn::newton_status::converged) << r.summary.message;
  EXPECT_TRUE(r.summary.usable());
  EXPECT_NEAR(r.x(0), 2.0, 1e-9);
  EXPECT_NEAR(r.x(1), -0.5, 1e-9);
}

TEST(LeastSquares, NonFiniteOrEmptySystemsDoNotCrash) {
  // An empty system (no violated row) used to reach maxCoeff() of an empty diagonal: SIGSEGV.
  const Eigen::VectorXd x0 =
      kn::minimum_norm_solution(Eigen::MatrixXd(0, 3), Eigen::VectorXd(0)).value();
  EXPECT_EQ(x0.size(), 3);
  EXPECT_EQ(x0.norm(), 0.0);
  Eigen::MatrixXd a(2, 4);
  a << 1, 2, 0, 1, 0, 1, 1, 3;
  for (const double bad :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Eigen::MatrixXd a_bad = a;
    a_bad(1, 2) = bad;
    EXPECT_THROW((void)kn::minimum_norm_solution(a_bad, Eigen::Vector2d(1, 2)),
                 std::invalid_argument);
    EXPECT_THROW((void)kn::minimum_norm_solution(a, Eigen::Vector2d(bad, 2)),
                 std::invalid_argument);
    EXPECT_THROW((void)kn::linear_least_squares(a_bad.transpose(), Eigen::Vector4d(1, 2, 3, 4)),
                 std::invalid_argument);
  }
}

TEST(NewtonOptions, ValidateNamesTheField) {
  kn::newton_options o;
  EXPECT_NO_THROW(o.validate());
  o.damping = 1.0;
  try {
    o.validate();
    FAIL() << "damping 1 accepted";
  } catch (const kinevo::io::option_error& e) {
    EXPECT_EQ(e.field(), "damping");
  }
  o = {};
  o.tol_x = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(o.validate(), kinevo::io::option_error);
  o = {};
  o.max_halvings = -1;
  EXPECT_THROW(o.validate(), kinevo::io::option_error);
  // Every driver checks its options before iterating.
  o = {};
  o.min_rcond = 2.0;
  const kn::system_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                   Eigen::MatrixXd* j) {
    r = x;
    if (j) *j = Eigen::MatrixXd::Identity(x.size(), x.size());
    return true;
  };
  EXPECT_THROW((void)kn::damped_newton(f, Eigen::VectorXd::Ones(2), o), kinevo::io::option_error);
}

TEST(NewtonResult, SummaryFollowsTheStatus) {
  kn::newton_result r;
  r.iterations = 7;
  r.end(kn::newton_status::converged);
  EXPECT_TRUE(r.summary.usable());
  EXPECT_EQ(r.summary.iterations, 7);
  r.end(kn::newton_status::max_iterations);
  EXPECT_EQ(r.summary.end, kinevo::core::termination::not_converged);
  EXPECT_EQ(r.summary.status(), "max_iterations");
  r.end(kn::newton_status::singular_jacobian);
  EXPECT_EQ(r.summary.end, kinevo::core::termination::failed);
  EXPECT_EQ(r.summary.message, "Newton: singular Jacobian");
  EXPECT_EQ(kn::to_string(kn::newton_status::diverged),
            "diverged (no step length lowers the residual)");
}

TEST(Backtracking, ShortensUntilAccepted) {
  Eigen::VectorXd dx = Eigen::VectorXd::Constant(1, 8.0);
  std::vector<double> tried;
  const int k = kn::backtrack(dx, 0.5, 10, [&](const Eigen::VectorXd& s) {
    tried.push_back(s(0));
    return s(0) <= 1.0;
  });
  EXPECT_EQ(k, 3);
  EXPECT_EQ(dx(0), 1.0);
  EXPECT_EQ(tried, (std::vector<double>{8.0, 4.0, 2.0, 1.0}));
  // None accepted: max_halvings + 1 trials, the last one kept, the count past the limit.
  int trials = 0;
  dx(0) = 1.0;
  EXPECT_EQ(kn::backtrack(dx, 0.5, 2, [&](const Eigen::VectorXd&) { return ++trials < 0; }), 3);
  EXPECT_EQ(trials, 3);
  EXPECT_EQ(dx(0), 0.25);
  // The length form: the accepted length, or the last one times the factor.
  EXPECT_EQ(kn::backtrack_length(0.5, 10, [](double t) { return t < 0.3; }), 0.25);
  EXPECT_EQ(kn::backtrack_length(0.5, 1, [](double) { return false; }), 0.25);
}

TEST(ArmijoLineSearch, FindsTheMinimumOfAQuadratic) {
  // F(q) = (q - 3)^2 from 0 along d = 1: slope -6; the quadratic fit lands on q = 3.
  const auto f = [](const Eigen::VectorXd& q) { return (q(0) - 3.0) * (q(0) - 3.0); };
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(1), d = Eigen::VectorXd::Ones(1);
  const auto p = kn::armijo_line_search(f, q, d, 9.0, -6.0);
  EXPECT_NEAR(p.alpha, 3.0, 1e-12);
  EXPECT_NEAR(p.value, 0.0, 1e-12);
  // F not finite off q: no length decreases F, after 60 backtracks.
  int calls = 0;
  const auto wall = [&](const Eigen::VectorXd& x) {
    ++calls;
    return x(0) == 0.0 ? 9.0 : std::numeric_limits<double>::infinity();
  };
  const auto none = kn::armijo_line_search(wall, q, d, 9.0, -6.0);
  EXPECT_EQ(calls, 61);
  EXPECT_EQ(none.alpha, 0.0);
  EXPECT_EQ(none.value, 9.0);
}

TEST(DampedNewton, StepSolverForm) {
  // Three equations in two unknowns with an exact solution (1, 2): the Householder step.
  const kn::residual_function f = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                     Eigen::MatrixXd* j) {
    r.resize(3);
    r << x(0) - 1.0, x(1) * x(1) - 4.0, x(0) * x(1) - 2.0;
    j->resize(3, 2);
    *j << 1, 0, 0, 2 * x(1), x(1), x(0);
  };
  kn::newton_options o;
  o.tol_x = o.tol_f = 1e-12;
  o.max_iterations = 50;
  o.max_halvings = 30;
  const auto r = kn::damped_newton(f, Eigen::Vector2d(0.5, 1.0), o, kn::householder_step);
  ASSERT_EQ(r.status, kn::newton_status::converged);
  EXPECT_NEAR(r.x(1), 2.0, 1e-12);
  // A zero Jacobian: the step solver refuses.
  const kn::residual_function flat = [](const Eigen::VectorXd& x, Eigen::VectorXd& r,
                                        Eigen::MatrixXd* j) {
    r = Eigen::VectorXd::Constant(2, 1.0);
    *j = Eigen::MatrixXd::Zero(2, x.size());
  };
  EXPECT_EQ(kn::damped_newton(flat, Eigen::Vector2d(0, 0), o, kn::lu_step).status,
            kn::newton_status::singular_jacobian);
}

TEST(NewtonRaphson, QuadraticAtARegularRootHalvingAtADoubleRoot) {
  // x^2 - 2 = 0 from 1: the root sqrt(2) (closed form), steps falling quadratically.
  std::vector<double> steps;
  const auto observe = [&](const Eigen::VectorXd&, const Eigen::VectorXd&,
                           const Eigen::VectorXd& dx) { steps.push_back(std::abs(dx(0))); };
  const kn::newton_step_function simple = [](const Eigen::VectorXd& x, Eigen::VectorXd& f,
                                             Eigen::VectorXd& dx) {
    f = Eigen::VectorXd::Constant(1, x(0) * x(0) - 2.0);
    dx = Eigen::VectorXd::Constant(1, -f(0) / (2.0 * x(0)));
    return true;
  };
  kn::newton_options o;
  o.tol_f = o.tol_x = 1e-12;
  const kn::newton_result r = kn::newton_raphson(simple, Eigen::VectorXd::Ones(1), o, observe);
  EXPECT_EQ(r.status, kn::newton_status::converged);
  EXPECT_NEAR(r.x(0), std::sqrt(2.0), 1e-15);
  EXPECT_EQ(r.iterations, static_cast<int>(steps.size()));
  EXPECT_LT(steps[3], steps[2] * steps[2] * 2.0);
  // (x - 1)^2 = 0: a double root, where each undamped step halves the error exactly.
  steps.clear();
  const kn::newton_step_function doubled = [](const Eigen::VectorXd& x, Eigen::VectorXd& f,
                                              Eigen::VectorXd& dx) {
    f = Eigen::VectorXd::Constant(1, (x(0) - 1.0) * (x(0) - 1.0));
    dx = Eigen::VectorXd::Constant(1, -(x(0) - 1.0) / 2.0);
    return true;
  };
  o.tol_f = o.tol_x = 1e-6;
  const kn::newton_result d =
      kn::newton_raphson(doubled, Eigen::VectorXd::Constant(1, 2.0), o, observe);
  EXPECT_EQ(d.status, kn::newton_status::converged);
  for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_DOUBLE_EQ(steps[i], 0.5 * steps[i - 1]);
}

TEST(NewtonRaphson, NonFiniteDivergedAndTheIterationLimitAreStatuses) {
  kn::newton_options o;
  const kn::newton_step_function refuses = [](const Eigen::VectorXd&, Eigen::VectorXd&,
                                              Eigen::VectorXd&) { return false; };
  const kn::newton_result a = kn::newton_raphson(refuses, Eigen::VectorXd::Zero(2), o);
  EXPECT_EQ(a.status, kn::newton_status::non_finite);
  EXPECT_EQ(a.iterations, 0);
  EXPECT_FALSE(a.summary.usable());
  const kn::newton_step_function nan_step = [](const Eigen::VectorXd&, Eigen::VectorXd& f,
                                               Eigen::VectorXd& dx) {
    f = Eigen::VectorXd::Ones(1);
    dx = Eigen::VectorXd::Constant(1, std::numeric_limits<double>::quiet_NaN());
    return true;
  };
  EXPECT_EQ(kn::newton_raphson(nan_step, Eigen::VectorXd::Zero(1), o).status,
            kn::newton_status::non_finite);
  // 1/x = 0 has no root: the steps x -> 2x grow without bound.
  const kn::newton_step_function no_root = [](const Eigen::VectorXd& x, Eigen::VectorXd& f,
                                              Eigen::VectorXd& dx) {
    f = Eigen::VectorXd::Constant(1, 1.0 / x(0));
    dx = x;
    return true;
  };
  o.max_iterations = 100;
  const kn::newton_result c = kn::newton_raphson(no_root, Eigen::VectorXd::Ones(1), o);
  EXPECT_EQ(c.status, kn::newton_status::diverged);
  EXPECT_EQ(c.iterations, 36);  // step k is 2^(k-1); 2^35 is the first above 1e10 (1 + 1)
  o.max_iterations = 5;
  const kn::newton_result d = kn::newton_raphson(no_root, Eigen::VectorXd::Ones(1), o);
  EXPECT_EQ(d.status, kn::newton_status::max_iterations);
  EXPECT_EQ(d.summary.end, kinevo::core::termination::not_converged);
}
