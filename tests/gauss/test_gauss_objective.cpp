#include "kinevo/gauss/gauss_objective.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>

#include "kkt_reference.hpp"
#include "kinevo/studies/double_pendulum_study.hpp"

namespace {

using kinevo::mechanics::constrained_system;
using kinevo::gauss::gauss_objective;
using kinevo::gauss::gauss_terms;

// Z1 written out term by term, no matrix products (eq. 5.6 plus lambda^T r).
double scalar_z1(const gauss_terms& t, const Eigen::VectorXd& a) {
  const auto n = a.size();
  double z = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      z += 0.5 * (a(i) - t.free_accel(i)) * t.mass(i, j) * (a(j) - t.free_accel(j));
    }
  }
  for (Eigen::Index k = 0; k < t.rhs.size(); ++k) {
    double r = -t.rhs(k);
    for (Eigen::Index j = 0; j < n; ++j) r += t.jacobian(k, j) * a(j);
    z += t.weights(k) * r * r + t.multipliers(k) * r;
  }
  return z;
}

constrained_system random_system(std::mt19937& rng, int n, int m) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  constrained_system s;
  const Eigen::MatrixXd r = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return u(rng); });
  s.mass = r * r.transpose() + n * Eigen::MatrixXd::Identity(n, n);
  s.force = Eigen::VectorXd::NullaryExpr(n, [&] { return 10.0 * u(rng); });
  s.jacobian = Eigen::MatrixXd::NullaryExpr(m, n, [&] { return u(rng); });
  s.rhs = Eigen::VectorXd::NullaryExpr(m, [&] { return 10.0 * u(rng); });
  return s;
}

TEST(gauss_objective, batch_relative_values_equal_scalar_reference) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 2 + trial % 5;
    const int m = 1 + trial % (n - 1 == 0 ? 1 : n - 1);
    const auto s = random_system(rng, n, m);
    const Eigen::VectorXd w =
        Eigen::VectorXd::NullaryExpr(m, [&] { return 1.0 + 100.0 * (u(rng) + 1.0); });
    const Eigen::VectorXd lambda = Eigen::VectorXd::NullaryExpr(m, [&] { return 5.0 * u(rng); });
    const auto terms = gauss_terms::from_system(s, w, lambda);
    const Eigen::VectorXd c = Eigen::VectorXd::NullaryExpr(n, [&] { return 3.0 * u(rng); });
    const gauss_objective obj(terms, c, Eigen::VectorXd::Constant(n, 2.0));
    const int count = 37;
    const Eigen::MatrixXd x = Eigen::MatrixXd::NullaryExpr(n, count, [&] { return 4.0 * u(rng); });
    Eigen::VectorXd values(count);
    obj.evaluate(x, values);
    const double zc = scalar_z1(terms, c);
    EXPECT_NEAR(obj.value_at_centre(), zc, 1e-11 * std::abs(zc));
    for (int j = 0; j < count; ++j) {
      const double ref = scalar_z1(terms, x.col(j)) - zc;
      EXPECT_NEAR(values(j), ref, 1e-10 * (std::abs(zc) + std::abs(ref))) << "trial " << trial;
    }
  }
}

TEST(gauss_objective, relative_values_resolve_below_the_absolute_round_off_floor) {
  // At the double pendulum's t = 0 state Z1 ~ 630: absolute differences cannot see a 1e-9
  // step, the relative form sees it exactly (1/2 d^T H d with H = M + 2 A^T W A).
  const auto s =
      kinevo::studies::double_pendulum_system(kinevo::studies::double_pendulum_state{});
  const auto terms =
      gauss_terms::from_system(s, Eigen::VectorXd::Constant(2, 1e6), Eigen::VectorXd::Zero(2));
  const Eigen::VectorXd c = terms.minimiser();
  const gauss_objective obj(terms, c, Eigen::VectorXd::Constant(4, 1.0));
  Eigen::MatrixXd x(4, 2);
  x.col(0) = c;
  x.col(1) = c;
  x(0, 1) += 1e-9;  // x1 is free of both rods at this state: curvature m1 = 1
  Eigen::VectorXd v(2);
  obj.evaluate(x, v);
  EXPECT_EQ(v(0), 0.0);
  EXPECT_NEAR(v(1), 0.5e-18, 1e-24);
}

TEST(gauss_objective, minimiser_is_off_by_order_one_over_w_without_multipliers) {
  const auto s =
      kinevo::studies::double_pendulum_system(kinevo::studies::double_pendulum_state{});
  const Eigen::VectorXd exact = kinevo::test::kkt_acceleration(s);
  const double pi2 = std::numbers::pi * std::numbers::pi;
  EXPECT_NEAR(exact(1), -pi2, 1e-13);
  EXPECT_NEAR(exact(3), -2.0 * pi2, 1e-13);
  const auto terms =
      gauss_terms::from_system(s, Eigen::VectorXd::Constant(2, 1e6), Eigen::VectorXd::Zero(2));
  const Eigen::VectorXd z1_min = terms.minimiser();
  // Reference values (checked independently): (0, -9.8695798, 0, -19.7391694), Z1 = 629.728273.
  EXPECT_NEAR(z1_min(1), -9.8695798, 1e-7);
  EXPECT_NEAR(z1_min(3), -19.7391694, 1e-7);
  EXPECT_NEAR(terms.penalised(z1_min), 629.728273, 1e-6);
  EXPECT_NEAR((z1_min - exact).cwiseAbs().maxCoeff(), 3.9e-5, 0.05e-5);
  EXPECT_NEAR(terms.gauss_function(exact), 629.7290969770, 1e-9);
  // With the exact multipliers the augmented minimiser is the constrained acceleration.
  const Eigen::VectorXd fc = s.mass * exact - s.force;  // = -A^T lambda*
  const Eigen::VectorXd lambda = -s.jacobian.transpose().colPivHouseholderQr().solve(fc);
  const auto exact_terms = gauss_terms::from_system(s, Eigen::VectorXd::Constant(2, 1e6), lambda);
  EXPECT_LT((exact_terms.minimiser() - exact).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(gauss_objective, bad_box_is_refused_with_a_message) {
  const auto s =
      kinevo::studies::double_pendulum_system(kinevo::studies::double_pendulum_state{});
  const auto terms =
      gauss_terms::from_system(s, Eigen::VectorXd::Constant(2, 1e6), Eigen::VectorXd::Zero(2));
  EXPECT_THROW(gauss_objective(terms, Eigen::VectorXd::Zero(4), Eigen::VectorXd::Zero(4)),
               std::invalid_argument);
  EXPECT_THROW(
      gauss_terms::from_system(s, Eigen::VectorXd::Constant(3, 1.0), Eigen::VectorXd::Zero(3)),
      std::invalid_argument);
}

}  // namespace

namespace {

TEST(gauss_objective, principal_axes_rotation_keeps_the_values) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto s = random_system(rng, 5, 2);
  const auto terms =
      gauss_terms::from_system(s, Eigen::Vector2d(30.0, 300.0), Eigen::Vector2d(1.0, -2.0));
  const Eigen::VectorXd c = Eigen::VectorXd::NullaryExpr(5, [&] { return u(rng); });
  const Eigen::MatrixXd b = gauss_objective::principal_axes(terms);
  EXPECT_LT((b.transpose() * b - Eigen::MatrixXd::Identity(5, 5)).norm(), 1e-12);
  const gauss_objective plain(terms, c, Eigen::VectorXd::Constant(5, 1.0));
  const gauss_objective rotated(terms, c, Eigen::VectorXd::Constant(5, 1.0), b);
  EXPECT_EQ(rotated.lower_bounds(), Eigen::VectorXd::Constant(5, -1.0));
  const Eigen::MatrixXd z = Eigen::MatrixXd::NullaryExpr(5, 11, [&] { return u(rng); });
  Eigen::MatrixXd x(5, 11);
  for (int j = 0; j < 11; ++j) x.col(j) = rotated.acceleration_of(z.col(j));
  Eigen::VectorXd vz(11), vx(11);
  rotated.evaluate(z, vz);
  plain.evaluate(x, vx);
  for (int j = 0; j < 11; ++j) EXPECT_NEAR(vz(j), vx(j), 1e-9 * (1.0 + std::abs(vx(j))));
}

}  // namespace
