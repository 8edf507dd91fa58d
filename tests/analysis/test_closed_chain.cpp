// Closed chains by damped Newton with invariants: the 7R example's symmetric branch and its
// singular configurations, and the RSRC against its closed form (Angeles et al., Diseño
// cinemático de maquinaria, 7R paper eq. (13), (19)-(20); RSRC paper eq. (21)).
#include "kinevo/analysis/closed_chain.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "chain_examples.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::analysis {
namespace {

using kinevo::test::deg;

std::vector<input_sample> range_deg(double from, double to, double step) {
  std::vector<input_sample> v;
  for (double x = from; x <= to + 1e-9; x += step)
    v.push_back({(x - from) * deg, x * deg, 1.0, 0.0});
  return v;
}

TEST(ClosedChain, SevenRSymmetricBranch) {
  const auto chain = kinevo::test::seven_r();
  for (const auto residual :
       {rotation_residual::automatic, rotation_residual::invariant, rotation_residual::relative}) {
    chain_newton_options o;
    o.residual = residual;
    for (double t1 = 125; t1 <= 235; t1 += 5) {
      if (t1 == 180) continue;
      const Eigen::VectorXd exact = kinevo::test::seven_r_branch(t1 * deg);
      const Eigen::VectorXd guess = exact.array() + 0.05;  // the reference's 0.05 rad perturbation
      const chain_point p = solve_closed_chain(chain, {0, t1 * deg, 1, 0}, guess, o);
      ASSERT_EQ(p.status, point_status::converged) << t1 << " " << to_string(residual);
      EXPECT_LT((p.q - exact).cwiseAbs().maxCoeff(), 1e-10) << t1;
      EXPECT_LE(p.iterations, 10) << t1;
    }
  }
}

TEST(ClosedChain, SevenRBranchTable) {
  // sevenR_symmetric_branch.csv (closed form, 6 decimals): the path from 125 to 175 deg.
  const auto t = kinevo::io::read_csv_table(kinevo::test::test_data("sevenR_symmetric_branch.csv"));
  const auto r = analyze_closed_chain(kinevo::test::seven_r(), range_deg(130, 170, 10),
                                      kinevo::test::seven_r_branch(130 * deg), {});
  ASSERT_EQ(r.points.size(), 5u);
  for (const auto& p : r.points) {
    for (std::size_t row = 0; row < t.rows.size(); ++row) {
      if (std::abs(t.rows[row][0] - p.input / deg) > 1e-9) continue;
      for (Eigen::Index j = 0; j < 7; ++j)
        EXPECT_NEAR(p.q[j] / deg, t.rows[row][static_cast<std::size_t>(j)], 1e-6);
    }
  }
  // 130..170 deg steps over the singular configuration at cos t1 = -3/4 (138.59 deg).
  EXPECT_EQ(r.crossings.size(), 1u);
  EXPECT_EQ(r.count(point_status::converged), 5u);
}

TEST(ClosedChain, SevenRRatesAt150) {
  // Checked: t1 = 150 deg, theta7dot = 1, theta7ddot = 0.
  const chain_point p = solve_closed_chain(kinevo::test::seven_r(), {0, 150 * deg, 1, 0},
                                           kinevo::test::seven_r_branch(150 * deg), {});
  ASSERT_EQ(p.status, point_status::converged);
  // t2 = acos(-2 + sqrt 3) = 105.542268 deg (the table's value; the reference's text says
  // 105.542271, 3e-6 deg off its own closed form).
  EXPECT_NEAR(p.q[1] / deg, std::acos(std::sqrt(3.0) - 2.0) / deg, 1e-10);
  const double rate[7] = {1, 1.03795485, -1.03795485, 2, 1.03795485, -1.03795485, 1};
  const double acc[7] = {0, -2.696686, 2.696686, 0, -2.696686, 2.696686, 0};
  for (int j = 0; j < 7; ++j) {
    EXPECT_NEAR(p.qdot[j], rate[j], 1e-8) << j;
    EXPECT_NEAR(p.qddot[j], acc[j], 1e-6) << j;
  }
  // And against the closed form: dt2/dt1 = 1.5 sin t1 / (cos^2 t1 sin t2), d2 by differences.
  const double t1 = 150 * deg, t2 = p.q[1];
  EXPECT_NEAR(p.qdot[1], 1.5 * std::sin(t1) / (std::cos(t1) * std::cos(t1) * std::sin(t2)), 1e-12);
  const double h = 1e-4;
  const double d2 =
      (kinevo::test::seven_r_branch(t1 + h)[1] - 2 * t2 + kinevo::test::seven_r_branch(t1 - h)[1]) /
      (h * h);
  EXPECT_NEAR(p.qddot[1], d2, 1e-5);
  // Both rotation residuals give the same rates.
  chain_newton_options inv;
  inv.residual = rotation_residual::invariant;
  const chain_point q = solve_closed_chain(kinevo::test::seven_r(), {0, 150 * deg, 1, 0},
                                           kinevo::test::seven_r_branch(150 * deg), inv);
  EXPECT_LT((q.qddot - p.qddot).cwiseAbs().maxCoeff(), 1e-10);
}

TEST(ClosedChain, SevenRSingularAt180IsReported) {
  const chain_point p = solve_closed_chain(kinevo::test::seven_r(), {0, 180 * deg, 1, 0},
                                           kinevo::test::seven_r_branch(175 * deg), {});
  EXPECT_EQ(p.status, point_status::singular);
  EXPECT_LT(p.sigma_ratio, 1e-6);
  EXPECT_TRUE(std::isnan(p.qdot[1]));  // no rates at a singular configuration
  // Regular at 179 deg (cond about 2e4 in the reference; here sigma ratio 2.8e-3 of the open
  // chain).
  const chain_point q = solve_closed_chain(kinevo::test::seven_r(), {0, 179 * deg, 1, 0},
                                           kinevo::test::seven_r_branch(175 * deg), {});
  EXPECT_EQ(q.status, point_status::converged);
}

TEST(ClosedChain, SevenRPathReportsSingularPointsAndCrossings) {
  auto r = analyze_closed_chain(kinevo::test::seven_r(), range_deg(125, 235, 5),
                                kinevo::test::seven_r_branch(125 * deg), {});
  EXPECT_EQ(r.count(point_status::singular), 1u);
  EXPECT_EQ(r.count(point_status::not_converged), 0u);
  EXPECT_FALSE(r.ok());
  // Crossed: cos t1 = -3/4 (t2 = 90 deg, 138.59 and 221.41 deg) and 180 deg.
  ASSERT_EQ(r.crossings.size(), 3u);
  EXPECT_NE(r.crossings[0].find("135 and 140"), std::string::npos);
  EXPECT_NE(r.crossings[2].find("220 and 225"), std::string::npos);
  chain_newton_options skip;
  skip.skip_singular = true;
  r = analyze_closed_chain(kinevo::test::seven_r(), range_deg(125, 235, 5),
                           kinevo::test::seven_r_branch(125 * deg), skip);
  EXPECT_TRUE(r.ok());
  // The loop Jacobian is rank 5 at cos t1 = -3/4 too (a configuration the reference does not list).
  const double t1 = std::acos(-0.75);
  const chain_point p = solve_closed_chain(kinevo::test::seven_r(), {0, t1, 1, 0},
                                           kinevo::test::seven_r_branch(t1), {});
  EXPECT_EQ(p.status, point_status::singular);
}

TEST(ClosedChain, RsrcAgainstClosedForm) {
  // s = a sin(phi) + sqrt(b^2 - c^2 - a^2 cos^2 phi), a = 1, b = 3, c = 2; s = -b7.
  std::vector<input_sample> in;
  for (int k = 0; k <= 24; ++k) in.push_back({k * 15 * deg, k * 15 * deg, 1.0, 0.0});
  const auto r = analyze_closed_chain(kinevo::test::rsrc(), in, kinevo::test::rsrc_start(), {});
  ASSERT_TRUE(r.ok());
  for (const auto& p : r.points) {
    const double phi = p.input, c = std::cos(phi), s = std::sin(phi);
    const double root = std::sqrt(9.0 - 4.0 - c * c);
    const double s_cf = s + root;
    const double sd_cf = c + c * s / root;
    const double sdd_cf = -s + std::cos(2 * phi) / root - (c * s) * (c * s) / (root * root * root);
    EXPECT_NEAR(-p.q[6], s_cf, 1e-12) << phi / deg;
    EXPECT_NEAR(-p.qdot[6], sd_cf, 1e-10) << phi / deg;
    EXPECT_NEAR(-p.qddot[6], sdd_cf, 1e-9) << phi / deg;
  }
  // The table rsrc_s_phi.csv (closed form, 9 decimals).
  const auto t = kinevo::io::read_csv_table(kinevo::test::test_data("rsrc_s_phi.csv"));
  for (const auto& row : t.rows) {
    const auto k = static_cast<std::size_t>(std::lround(row[0] / 15.0));
    ASSERT_LT(k, r.points.size());
    EXPECT_NEAR(-r.points[k].q[6], row[1], 1e-9);
    EXPECT_NEAR(-r.points[k].qdot[6], row[2], 1e-9);
    EXPECT_NEAR(-r.points[k].qddot[6], row[3], 1e-9);
  }
  // phi = 90 and 270 deg: the target's rotation angle is far from 90/180/270 deg, so the
  // automatic residual is the printed invariant one; elsewhere the relative one.
  EXPECT_EQ(r.points[6].residual, "invariant");
}

TEST(ClosedChain, OptionsValidate) {
  chain_newton_options o;
  o.damping = 1.5;
  EXPECT_THROW(o.validate(), kinevo::io::option_error);
  closed_chain c = kinevo::test::seven_r();
  c.links.pop_back();
  EXPECT_THROW(c.validate(), kinevo::io::option_error);
}

TEST(ClosedChain, InvariantResidualSingularAtNinetyDegrees) {
  // At phi = 0 the RSRC's target Q = Q_1^T turns by 90 deg: det(1 tr Q - Q) = 0, so the printed
  // residual's Jacobian is singular at a regular configuration; the relative residual solves it.
  const Eigen::Matrix3d q = dh_rotation(0.0, 90 * deg).transpose();
  EXPECT_NEAR(rotation_angle(q), 90 * deg, 1e-15);
  EXPECT_NEAR(invariant_matrix(q).determinant(), 0.0, 1e-15);
  chain_newton_options inv;
  inv.residual = rotation_residual::invariant;
  const chain_point p =
      solve_closed_chain(kinevo::test::rsrc(), {0, 0, 1, 0}, kinevo::test::rsrc_start(), inv);
  EXPECT_EQ(p.status, point_status::not_converged);
  EXPECT_TRUE(p.formulation_singular);
  const chain_point a =
      solve_closed_chain(kinevo::test::rsrc(), {0, 0, 1, 0}, kinevo::test::rsrc_start(), {});
  EXPECT_EQ(a.status, point_status::converged);
  EXPECT_EQ(a.residual, "relative");
  EXPECT_NEAR(-a.q[6], 2.0, 1e-12);
}

TEST(ClosedChain, AnyJointCanBeTheInput) {
  // The loop cut at joint 1 instead of 7: same configuration, and theta7dot = theta1dot on the
  // symmetric branch.
  auto chain = kinevo::test::seven_r();
  chain.input = 0;
  const Eigen::VectorXd exact = kinevo::test::seven_r_branch(150 * deg);
  const chain_point p = solve_closed_chain(chain, {0, 150 * deg, 1, 0}, exact.array() + 0.05, {});
  ASSERT_EQ(p.status, point_status::converged);
  EXPECT_LT((p.q - exact).cwiseAbs().maxCoeff(), 1e-10);
  EXPECT_NEAR(p.qdot[6], 1.0, 1e-10);
  EXPECT_NEAR(p.qdot[1], 1.03795485, 1e-8);
  EXPECT_NEAR(p.qddot[1], -2.696686, 1e-6);
}

}  // namespace
}  // namespace kinevo::analysis
