// Checked values of the shared reference (copied here): the double pendulum of the
// generalized-inverse dissertation (GIGSP), section 5.4, at t = 0, and both branches of the
// four-bar of its Example 1. The four-bar state is solved here independently (Newton on
// eqs. 4.10-4.11 by hand, not through the model), then the model's (M, f, A, b) is solved.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

TEST(ReferenceValues, DoublePendulumAtTimeZero) {
  const model m = load_model(examples + "/double_pendulum.toml");
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const double pi2 = std::numbers::pi * std::numbers::pi;
  for (const auto& name : direct_solver_names()) {
    const acceleration_result r = make_solver(name)->solve(s);
    ASSERT_EQ(r.status, solve_status::ok) << name;
    EXPECT_NEAR(r.acceleration[0], 0.0, 1e-12) << name;
    EXPECT_NEAR(r.acceleration[1], -pi2, 1e-12) << name;
    EXPECT_NEAR(r.acceleration[2], 0.0, 1e-12) << name;
    EXPECT_NEAR(r.acceleration[3], -2.0 * pi2, 1e-12) << name;
    // Z = 1/2 (a - a_f)^T M (a - a_f) = 629.7290969770 (reference README).
    const Eigen::VectorXd d =
        r.acceleration - s.mass.diagonal().cwiseInverse().cwiseProduct(s.force);
    EXPECT_NEAR(0.5 * d.dot(s.mass * d), 629.7290969770, 1e-8) << name;
  }
}

struct fourbar_state {
  double th3, th4, w3, w4;
};

// Newton on the loop equations for th3, th4 at th2, then the 2 x 2 velocity equations.
fourbar_state solve_fourbar(double th3, double th4) {
  const double r1 = 9, r2 = 2, r3 = 7, r4 = 6, th2 = std::numbers::pi / 6, w2 = 10;
  for (int it = 0; it < 50; ++it) {
    const double f1 = r2 * std::cos(th2) + r3 * std::cos(th3) - r1 - r4 * std::cos(th4);
    const double f2 = r2 * std::sin(th2) + r3 * std::sin(th3) - r4 * std::sin(th4);
    const double a = -r3 * std::sin(th3), b = r4 * std::sin(th4);
    const double c = r3 * std::cos(th3), d = -r4 * std::cos(th4);
    const double det = a * d - b * c;
    th3 -= (d * f1 - b * f2) / det;
    th4 -= (-c * f1 + a * f2) / det;
  }
  const double a = -r3 * std::sin(th3), b = r4 * std::sin(th4);
  const double c = r3 * std::cos(th3), d = -r4 * std::cos(th4);
  const double e1 = r2 * std::sin(th2) * w2, e2 = -r2 * std::cos(th2) * w2;
  const double det = a * d - b * c;
  return {th3, th4, (d * e1 - b * e2) / det, (-c * e1 + a * e2) / det};
}

void check_branch(double th3_deg, double th4_deg, double w3, double w4, double a3, double a4) {
  const model m = load_model(examples + "/fourbar_kinematics.toml");
  const double deg = std::numbers::pi / 180;
  const fourbar_state st = solve_fourbar(th3_deg * deg, th4_deg * deg);
  EXPECT_NEAR(st.th3 / deg, th3_deg, 1e-6);
  EXPECT_NEAR(st.th4 / deg, th4_deg, 1e-6);
  EXPECT_NEAR(st.w3, w3, 1e-8);
  EXPECT_NEAR(st.w4, w4, 1e-8);
  Eigen::VectorXd q(3), qd(3);
  q << std::numbers::pi / 6, st.th3, st.th4;
  qd << 10.0, st.w3, st.w4;
  const constrained_system s = m.evaluate(q, qd, 0.0);
  for (const auto& name : direct_solver_names()) {
    const acceleration_result r = make_solver(name)->solve(s);
    ASSERT_EQ(r.status, solve_status::ok) << name;
    EXPECT_NEAR(r.acceleration[0], 0.0, 1e-10) << name;
    EXPECT_NEAR(r.acceleration[1], a3, 1e-7) << name;
    EXPECT_NEAR(r.acceleration[2], a4, 1e-7) << name;
  }
}

TEST(ReferenceValues, FourBarBothBranches) {
  check_branch(41.578971, 109.792181, -3.02821980, -0.72052749, 8.63900118, 46.48080308);
  check_branch(-57.247290, -125.460500, -1.27790913, -3.58560144, 39.20484101, 1.36303911);
}

TEST(ReferenceValues, HaugFourBarJacobianHas34NonZeros) {
  const model m = load_model(examples + "/haug_fourbar.toml");
  EXPECT_EQ(m.coordinates(), 12);
  EXPECT_EQ(m.constraints(), 12);
  EXPECT_EQ(m.jacobian_pattern().size(), 34u);  // Haug, eq. 4.2.6
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const acceleration_result r = make_solver("gigsp")->solve(s);
  EXPECT_EQ(r.rank, 12);
}

TEST(ReferenceValues, FiveBarInconsistentIsReportedByName) {
  const model m = load_model(examples + "/fivebar_inconsistent.toml");
  const constrained_system s = m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0);
  const acceleration_result r = make_solver("gigsp")->solve(s);
  EXPECT_EQ(r.status, solve_status::inconsistent);
  EXPECT_NE(r.message.find("'link5_y'"), std::string::npos) << r.message;
  EXPECT_EQ(make_solver("uk")->solve(s).status, solve_status::least_squares);
}

}  // namespace
}  // namespace kinevo::mechanics
