// 5-DOF guidance: the 6R hexflex example of Angeles et al., Diseño cinemático de maquinaria,
// paper "Guidance of axially symmetric rigid bodies ...": Jacobian with the -sqrt(3) fix,
// input-output law, motion history and the dead point.
#include "kinevo/analysis/guidance_chain.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "chain_examples.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::analysis {
namespace {

using kinevo::test::deg;

std::vector<guidance_target> hexflex_motion(double t_end, double dt) {
  std::vector<guidance_target> v;
  for (int k = 0; k * dt <= t_end + 1e-9; ++k) v.push_back(kinevo::test::hexflex_target(k * dt));
  return v;
}

TEST(GuidanceChain, JacobianAtPrintedConfiguration) {
  const double r3 = std::sqrt(3.0);
  Eigen::MatrixXd expected(6, 5);
  expected << 0, 0, -r3, 0, 0, -2, 0, 1, 0, 0, 0, 0, 0, -1, 0, 0, 0, -r3, 0, 0, -1, 0, 0, 0, 1, 0,
      -0.5, 0, -0.5, 0;
  const Eigen::MatrixXd j =
      guidance_jacobian(kinevo::test::hexflex(), kinevo::test::hexflex_start());
  EXPECT_LT((j - expected).cwiseAbs().maxCoeff(), 1e-12);
  // Delta f = (0, 0, xi | 0, 0, 0) gives Delta theta = (0, xi, 0, -xi, 0).
  Eigen::VectorXd df(6);
  df << 0, 0, 0.01, 0, 0, 0;
  const Eigen::VectorXd dth = j.householderQr().solve(df);
  Eigen::VectorXd expected_dth(5);
  expected_dth << 0, 0.01, 0, -0.01, 0;
  EXPECT_LT((dth - expected_dth).cwiseAbs().maxCoeff(), 1e-12);
  // At t = 0 the guided points are where the closing link holds them.
  const guided_points p = guided_points_at(kinevo::test::hexflex(), kinevo::test::hexflex_start());
  EXPECT_LT((p.a - kinevo::test::hexflex_target(0).a).norm(), 1e-14);
  EXPECT_LT((p.b - kinevo::test::hexflex_target(0).b).norm(), 1e-14);
}

TEST(GuidanceChain, HexflexMotion) {
  const auto r = analyze_guidance(kinevo::test::hexflex(), hexflex_motion(2.0, 0.1),
                                  kinevo::test::hexflex_start(), {});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.points.size(), 21u);
  for (const auto& p : r.points) {
    const double c1 = std::cos(p.q[0]), c2 = std::cos(p.q[1]);
    EXPECT_NEAR((1 + c1) * (1 + c2), 1.0, 1e-12) << p.t;  // input-output law
    EXPECT_NEAR(p.q[0], -p.q[2], 1e-12);
    EXPECT_NEAR(p.q[0], p.q[4], 1e-12);
    EXPECT_NEAR(p.q[1], p.t, 1e-12);
    EXPECT_NEAR(p.q[3], -p.t, 1e-12);
    EXPECT_LE(p.iterations, 5);
  }
  // Checked values: t = 1 s and t = 0.
  const chain_point& one = r.points[10];
  EXPECT_NEAR(one.q[0] / deg, 110.534835, 1e-6);
  EXPECT_NEAR(one.qdot[0], -0.37873758, 1e-8);
  EXPECT_NEAR(one.qddot[0], -0.60326492, 1e-8);
  EXPECT_NEAR(r.points[0].qddot[0], -1.0 / (2.0 * std::sqrt(3.0)), 1e-12);
  // Against the table sixR_hexflex_motion.csv (9 decimals).
  const auto t = kinevo::io::read_csv_table(kinevo::test::test_data("sixR_hexflex_motion.csv"));
  ASSERT_EQ(t.rows.size(), r.points.size());
  for (std::size_t k = 0; k < t.rows.size(); ++k) {
    const auto& row = t.rows[k];
    const chain_point& p = r.points[k];
    for (Eigen::Index j = 0; j < 5; ++j)
      EXPECT_NEAR(p.q[j] / deg, row[static_cast<std::size_t>(j) + 1], 2e-9);
    EXPECT_NEAR(p.qdot[0], row[6], 2e-9);
    EXPECT_NEAR(p.qdot[1], row[7], 2e-9);
    EXPECT_NEAR(p.qddot[0], row[8], 5e-8);  // the table's accelerations are by differences
  }
}

TEST(GuidanceChain, DeadPointReported) {
  // theta6 = t beyond 120 deg (2.094 s): no assembly; the Jacobian loses rank on the way.
  const auto r = analyze_guidance(kinevo::test::hexflex(), hexflex_motion(2.2, 0.1),
                                  kinevo::test::hexflex_start(), {});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.points[20].status, point_status::converged);
  EXPECT_NE(r.points[21].status, point_status::converged);
  EXPECT_TRUE(std::isnan(r.points[21].q[0]) || r.points[21].status == point_status::singular);
  EXPECT_FALSE(r.problems().empty());
}

}  // namespace
}  // namespace kinevo::analysis
