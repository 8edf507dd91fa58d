// Screw parameters of instantaneous motions against the worked example of Angeles et al.,
// Diseño cinemático de maquinaria, paper "Automatic computation of the screw parameters of
// rigid-body motions. Part II" (checked values, with the reference's fixes: r0 by the fixed
// (14), udot = sqrt3 by the fixed (20)), the counterexample to its Theorem 1, and random
// screw motions of known axis, rate and slide rate.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "kinevo/analysis/instant_screw.hpp"
#include "kinevo/analysis/point_table.hpp"
#include "screw_test_support.hpp"

namespace {

using Eigen::Matrix3d, Eigen::Vector3d;
using kinevo::analysis::instant_screw, kinevo::analysis::screw_status;
using kinevo::test::expect_vector;
using kinevo::test::s3;

// The example (examples/screw_instant_points.csv).
const std::vector<Vector3d> example_points{{1, 1, 7}, {4, 7, 1}, {7, 10, 10}};
const std::vector<Vector3d> example_velocities{{7, -5, 1}, {-5, 4, 4}, {1, -2, 4}};

TEST(InstantScrew, ExampleScrewParameters) {
  const auto r = instant_screw(example_points, example_velocities);
  ASSERT_EQ(r.status, screw_status::ok) << r.message;
  expect_vector(r.centroid, Vector3d(4, 6, 6), 1e-14, "c");
  expect_vector(r.velocity, Vector3d(1, -1, 3), 1e-14, "v");
  EXPECT_LT(r.rigidity_violation, 1e-14);
  expect_vector(r.omega, Vector3d(1, 1, 1), 1e-13, "omega");
  EXPECT_NEAR(r.rate, s3, 1e-13);
  expect_vector(r.axis, Vector3d(1, 1, 1) / s3, 1e-14, "e");
  expect_vector(r.point, Vector3d::Zero(), 1e-12, "r0 (14)");
  expect_vector(r.point_min_norm, Vector3d::Zero(), 1e-12, "r0 minimum norm");
  // Fixed (20): udot = e . pdot_i = sqrt3 = 1.732051 for all three points (printed 0).
  EXPECT_NEAR(r.slide_rate, s3, 1e-13);
  EXPECT_NEAR(r.slide_rate, 1.732051, 5e-7);
  for (const double u : r.point_slide_rates) EXPECT_NEAR(u, s3, 1e-13);
}

TEST(InstantScrew, ExampleIntermediateValues) {
  // P, Pdot (5)-(6), 1 tr P - P and its inverse, vect(Pdot), Omega's fixed last row, the system
  // for r, computed here from the example's data as the reference checks them; eq. (8) agrees
  // with the least squares on this example (its frame is not a counterexample).
  const auto r = instant_screw(example_points, example_velocities);
  Matrix3d p, pd;
  for (int i = 0; i < 3; ++i) {
    p.col(i) = example_points[i] - r.centroid;
    pd.col(i) = example_velocities[i] - r.velocity;
  }
  Matrix3d p_want, pd_want, m_inv;
  p_want << -3, 0, 3, -5, 1, 4, 1, -5, 4;
  pd_want << 6, -6, 0, -4, 5, -1, -2, 1, 1;
  m_inv << 18, -15, 3, 14, -13, 5, 26, -25, 5;
  EXPECT_TRUE(p.isApprox(p_want, 1e-15));
  EXPECT_TRUE(pd.isApprox(pd_want, 1e-15));
  const Matrix3d m = p.trace() * Matrix3d::Identity() - p;
  EXPECT_TRUE(m.inverse().isApprox(m_inv / 12.0, 1e-14));
  const Vector3d vp = kinevo::analysis::vect(pd);
  expect_vector(vp, Vector3d(1, 1, 1), 1e-15, "vect(Pdot)");
  expect_vector(2.0 * m.partialPivLu().solve(vp), r.omega, 1e-13, "eq. (8)");
  const Matrix3d big_omega = kinevo::analysis::skew(r.omega);
  expect_vector(big_omega.row(2).transpose(), Vector3d(-1, 1, 0), 1e-13, "Omega row 3 (fixed)");
  Matrix3d sys;
  sys << -2, 1, 1, 1, -2, 1, 1, 1, -2;
  EXPECT_TRUE((big_omega * big_omega).isApprox(sys, 1e-13));
  // Householder rows (2 alpha, -alpha, -alpha), (0, beta, -beta), alpha = sqrt6/2, beta = 3sqrt2/2.
  const auto s = kinevo::analysis::minimum_norm_rank2(sys, Vector3d::Zero());
  const double alpha = std::sqrt(6.0) / 2, beta = 3 * std::sqrt(2.0) / 2;
  const Eigen::Matrix<double, 3, 2> rows = s.reduced_matrix.transpose();
  const double s0 = rows(0, 0) > 0 ? 1.0 : -1.0, s1 = rows(1, 1) > 0 ? 1.0 : -1.0;
  expect_vector(s0 * rows.col(0), Vector3d(2 * alpha, -alpha, -alpha), 1e-13, "HA row 1");
  expect_vector(s1 * rows.col(1), Vector3d(0, beta, -beta), 1e-13, "HA row 2");
}

TEST(InstantScrew, TheoremOneCounterexampleWorks) {
  // Centred points (1,0,0), (0,-1,0), (-1,1,0): not collinear, yet tr P = 0 and 1 tr P - P is
  // singular, so eq. (8) cannot give omega; the least squares does.
  const std::vector<Vector3d> p{{1, 0, 0}, {0, -1, 0}, {-1, 1, 0}};
  Matrix3d pm;
  for (int i = 0; i < 3; ++i) pm.col(i) = p[i];
  EXPECT_EQ(pm.trace(), 0.0);
  EXPECT_EQ((pm.trace() * Matrix3d::Identity() - pm).determinant(), 0.0);
  const Vector3d omega(0.3, -0.7, 1.1), v(1, 2, 3);
  std::vector<Vector3d> pd;
  for (const auto& x : p) pd.push_back(v + omega.cross(x));
  const auto r = instant_screw(p, pd);
  ASSERT_EQ(r.status, screw_status::ok) << r.message;
  expect_vector(r.omega, omega, 1e-14, "omega");
  EXPECT_NEAR(r.rate, omega.norm(), 1e-14);
  expect_vector(r.point, r.point_min_norm, 1e-13, "(14) vs minimum norm");
}

TEST(InstantScrew, RandomScrewMotionsRecovered) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> rate(0.01, 10.0), slide(-3.0, 3.0), count(3, 7);
  for (int trial = 0; trial < 200; ++trial) {
    SCOPED_TRACE(trial);
    const auto p = kinevo::test::random_points(rng, static_cast<int>(count(rng)));
    const Vector3d e = kinevo::test::random_unit(rng), a = 2.0 * kinevo::test::random_unit(rng);
    const double w = rate(rng), u = slide(rng);
    std::vector<Vector3d> pd;
    for (const auto& x : p) pd.push_back(w * e.cross(x - a) + u * e);
    const auto r = instant_screw(p, pd);
    ASSERT_EQ(r.status, screw_status::ok) << r.message;
    expect_vector(r.axis, e, 1e-10, "axis");
    EXPECT_NEAR(r.rate, w, 1e-10 * w);
    expect_vector(r.point, kinevo::test::closest_to_origin(a, e), 1e-10, "point (14)");
    expect_vector(r.point_min_norm, kinevo::test::closest_to_origin(a, e), 1e-10, "min norm");
    EXPECT_NEAR(r.slide_rate, u, 1e-10);
  }
}

TEST(InstantScrew, PureTranslationAndRest) {
  const std::vector<Vector3d> pd(3, Vector3d(0, 3, 4));
  const auto r = instant_screw(example_points, pd);
  EXPECT_EQ(r.status, screw_status::pure_translation);
  EXPECT_EQ(r.rate, 0.0);
  expect_vector(r.axis, Vector3d(0, 0.6, 0.8), 1e-14, "direction");
  EXPECT_NEAR(r.slide_rate, 5.0, 1e-14);
  EXPECT_TRUE(std::isnan(r.point.x()));
  EXPECT_NE(r.full_report().find("pure translation"), std::string::npos);
  const std::vector<Vector3d> rest(3, Vector3d::Zero());
  EXPECT_EQ(instant_screw(example_points, rest).status, screw_status::no_motion);
}

TEST(InstantScrew, CollinearAndNonRigidAreRefused) {
  const std::vector<Vector3d> line{{0, 0, 0}, {1, 2, 3}, {2, 4, 6}};
  EXPECT_EQ(instant_screw(line, example_velocities).status, screw_status::collinear);
  auto pd = example_velocities;
  pd[1] += Vector3d(0.1, 0, 0);
  const auto r = instant_screw(example_points, pd);
  EXPECT_EQ(r.status, screw_status::not_rigid);
  EXPECT_GT(r.rigidity_violation, 1e-3);
  EXPECT_NE(r.message.find("rigid"), std::string::npos);
}

TEST(InstantScrew, ReportsAndTable) {
  const auto t =
      kinevo::analysis::read_point_table(std::string(KINEVO_EXAMPLES) + "/screw_instant_points.csv",
                                         kinevo::analysis::point_table_kind::instant);
  const auto r = instant_screw(t.first, t.second, {}, t.labels);
  const auto j = r.to_json();
  EXPECT_NEAR(j["rate"].get<double>(), s3, 1e-13);
  EXPECT_NEAR(j["slide_rate"].get<double>(), s3, 1e-13);
  EXPECT_EQ(j["axis"].size(), 3u);
  EXPECT_NE(r.points_csv().str().find("slide_rate"), std::string::npos);
}

TEST(InstantScrew, BadTablesNameFileLineAndColumn) {
  using kinevo::analysis::point_table_from;
  using kinevo::analysis::point_table_kind;
  auto parse = [](const std::string& text) {
    return point_table_from(kinevo::io::parse_csv_table(text, "t.csv"), point_table_kind::instant);
  };
  EXPECT_THROW(parse("point,x,y,z,xdot,ydot\n1,0,0,0,0,0\n"), kinevo::io::input_error);
  try {
    parse("point,x,y,z,xdot,ydot,zdot\n1,0,0,0,0,0,0\n2,1,0,0,0,0,0\n1,0,1,0,0,0,0\n");
    FAIL() << "repeated point accepted";
  } catch (const kinevo::io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("t.csv:4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("point"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse("point,x,y,z,xdot,ydot,zdot\n1,0,0,0,0,0,0\n"), kinevo::io::input_error);
}

}  // namespace
