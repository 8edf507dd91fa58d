// Screw parameters of finite displacements against the worked example of Angeles et al.,
// Diseño cinemático de maquinaria, paper "Automatic computation of the screw parameters of
// rigid-body motions. Part I" (the values the reference marks checked, with its fixes), and
// against random screw motions of known axis, angle and slide.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "kinevo/analysis/finite_screw.hpp"
#include "kinevo/analysis/point_table.hpp"
#include "screw_test_support.hpp"

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;
using kinevo::analysis::finite_screw;
using kinevo::analysis::screw_status;
using kinevo::test::expect_vector;

using kinevo::test::s3;
using std::numbers::pi;

void expect_matrix(const Matrix3d& got, const Matrix3d& want, double tol, const char* what) {
  for (int i = 0; i < 3; ++i)
    expect_vector(got.row(i).transpose(), want.row(i).transpose(), tol, what);
}

// The example's points (examples/screw_finite_points.csv).
const std::vector<Vector3d> example_p{{1, 0, 0}, {1, 1, 0}, {2, 1, -1}};
const std::vector<Vector3d> example_q{{2, 0, -1}, {2, 0, 0}, {3, -1, 0}};

TEST(FiniteScrew, ExampleCentroidsAndMoments) {
  const auto r = finite_screw(example_p, example_q);
  ASSERT_EQ(r.status, screw_status::ok) << r.message;
  expect_vector(r.centroid, Vector3d(4, 2, -1) / 3.0, 1e-14, "c (fixed: printed (4,2,1)/3)");
  expect_vector(r.centroid_prime, Vector3d(7, -1, -1) / 3.0, 1e-14, "c'");
  Matrix3d a, b;
  a << 4, -1, 2, -1, 4, 1, 2, 1, 4;
  b << 4, 2, -1, 2, 4, 1, -1, 1, 4;
  expect_matrix(r.moment, a / 3.0, 1e-14, "A");
  expect_matrix(r.moment_prime, b / 3.0, 1e-14, "B");
  EXPECT_NEAR(r.moment.trace(), 4.0, 1e-14);
  EXPECT_NEAR((r.moment * r.moment).trace(), 20.0 / 3.0, 1e-13);
  // I1 = 1 - sqrt3/3 = 0.422650 by the fixed (29), I2 = 1 + sqrt3/3 = 1.577350, I3 = 2.
  expect_vector(r.moments, Vector3d(1 - s3 / 3, 1 + s3 / 3, 2), 1e-14, "I");
  EXPECT_NEAR(r.moments(0), 0.422650, 5e-7);
  EXPECT_NEAR(r.moments(1), 1.577350, 5e-7);
  expect_vector(r.moments_prime, r.moments, 1e-14, "I of B");
  EXPECT_NEAR(r.conditioning, (1 + s3 / 3) / (1 - s3 / 3), 1e-12);
}

TEST(FiniteScrew, ExampleHouseholderEchelonOfAMinusI3) {
  const auto r = finite_screw(example_p, example_q);
  // H(A - I3 1) = [[3, 2, -3], [0, sqrt2, 0], [0, 0, 0]] / 3, rows up to sign.
  const Eigen::HouseholderQR<Matrix3d> qr(r.moment - r.moments(2) * Matrix3d::Identity());
  const Matrix3d h = qr.matrixQR().triangularView<Eigen::Upper>();
  Matrix3d want;
  want << 3, 2, -3, 0, std::sqrt(2.0), 0, 0, 0, 0;
  want /= 3.0;
  for (int i = 0; i < 3; ++i) {
    const double sign = h(i, i) * want(i, i) < 0.0 ? -1.0 : 1.0;
    expect_vector(sign * h.row(i).transpose(), want.row(i).transpose(), 1e-14, "echelon row");
  }
}

TEST(FiniteScrew, ExamplePrincipalFramesAndRotation) {
  const auto r = finite_screw(example_p, example_q);
  ASSERT_TRUE(r.ok());
  const Matrix3d& e = r.e_frame;
  const Matrix3d& f = r.f_frame;
  // Printed to four decimals (the signs of the e_i are free; these are the printed ones).
  expect_vector(e.col(0), Vector3d(-0.6280, -0.4597, 0.6280), 5e-5, "e1");
  expect_vector(e.col(1), Vector3d(0.3251, -0.8881, -0.3251), 5e-5, "e2");
  expect_vector(e.col(2), Vector3d(0.7071, 0, 0.7071), 5e-5, "e3");
  expect_vector(f.col(0), Vector3d(-0.6280, 0.6280, -0.4597), 5e-5, "f1");
  expect_vector(f.col(1), Vector3d(0.3251, -0.3251, -0.8881), 5e-5, "f2");
  expect_vector(f.col(2), Vector3d(-0.7071, -0.7071, 0), 5e-5, "f3");
  // q_ij = e_i . f_j (14a), with the reference's fixes of the printed last digits and row 3.
  Matrix3d q;
  q << -0.1830, -0.6124, 0.7691, -0.6124, 0.6830, 0.3981, -0.7691, -0.3981, -0.5000;
  expect_matrix(r.rotation_e, q, 5e-5, "Q (e-basis)");
  Matrix3d qr;
  qr << 0, 0, -1, -1, 0, 0, 0, 1, 0;
  expect_matrix(r.rotation, qr, 1e-14, "Q_R");
  for (std::size_t i = 0; i < 3; ++i) {
    expect_vector(r.rotation * (example_p[i] - r.centroid), example_q[i] - r.centroid_prime, 1e-14,
                  "Q_R (p - c) = p' - c'");
  }
  // e sin theta = vect(Q_R) = (1, -1, -1)/2 (15a), cos theta = (tr Q - 1)/2 = -1/2 (fixed).
  expect_vector(kinevo::analysis::vect(r.rotation), Vector3d(1, -1, -1) / 2.0, 1e-14, "vect");
  EXPECT_NEAR(0.5 * (r.rotation.trace() - 1.0), -0.5, 1e-14);
}

TEST(FiniteScrew, ExampleAxisAngleSlideInTheZeroToPiConvention) {
  const auto r = finite_screw(example_p, example_q);
  ASSERT_TRUE(r.ok());
  // The reference prints e = sqrt3/3 (-1, 1, 1), theta = 4 pi/3, u = -2 sqrt3/3; with theta in
  // [0, pi] the same screw is e = sqrt3/3 (1, -1, -1), theta = 2 pi/3, u = +2 sqrt3/3.
  expect_vector(r.axis, Vector3d(1, -1, -1) / s3, 1e-14, "e");
  EXPECT_NEAR(r.angle, 2.0 * pi / 3.0, 1e-14);
  EXPECT_NEAR(r.slide, 2.0 * s3 / 3.0, 1e-14);
  EXPECT_NEAR(-r.slide, -1.154701, 5e-7);
  for (const double u : r.point_slides) EXPECT_NEAR(u, 2.0 * s3 / 3.0, 1e-14);
  // Both pairs are the same rotation.
  const Matrix3d printed = kinevo::test::rotation_about(Vector3d(-1, 1, 1) / s3, 4.0 * pi / 3.0);
  expect_matrix(kinevo::test::rotation_about(r.axis, r.angle), printed, 1e-14, "same rotation");
  expect_matrix(printed, r.rotation, 1e-14, "printed pair gives Q_R");
  // r0 = (1, 2/3, 1/3) (printed as x0), the axis point closest to the origin.
  expect_vector(r.point, Vector3d(1, 2.0 / 3, 1.0 / 3), 1e-14, "r0");
  EXPECT_NEAR(r.point.dot(r.axis), 0.0, 1e-14);
}

TEST(FiniteScrew, ExampleMinimumNormRouteForPointOne) {
  const auto r = finite_screw(example_p, example_q);
  // (18a) for lambda = 1: A = [[2,1,1],[1,2,-1],[1,-1,2]], b = (3, 2, 1).
  const auto eq = kinevo::analysis::axis_point_equations_of(r.rotation, example_p[0], example_q[0]);
  Matrix3d a;
  a << 2, 1, 1, 1, 2, -1, 1, -1, 2;
  expect_matrix(eq.matrix, a, 1e-14, "A (18a)");
  expect_vector(eq.rhs, Vector3d(3, 2, 1), 1e-14, "b (18a)");
  // The printed reduction (20) is the unpivoted Householder echelon of [A | b]:
  // A' = [[-sqrt6, -sqrt6/2, -sqrt6/2], [0, -3 sqrt2/2, 3 sqrt2/2]], b' = (-3 sqrt6/2, -sqrt2/2)
  // (rows up to sign).
  Eigen::Matrix<double, 3, 4> ab;
  ab << eq.matrix, eq.rhs;
  const Eigen::HouseholderQR<Eigen::Matrix<double, 3, 4>> qr(ab);
  const Eigen::Matrix<double, 3, 4> echelon = qr.matrixQR().triangularView<Eigen::Upper>();
  const double r6 = std::sqrt(6.0), r2 = std::sqrt(2.0);
  const Eigen::Matrix<double, 2, 4> want{{-r6, -r6 / 2, -r6 / 2, -3 * r6 / 2},
                                         {0, -3 * r2 / 2, 3 * r2 / 2, -r2 / 2}};
  for (int i = 0; i < 2; ++i) {
    const double sign = echelon(i, i) * want(i, i) < 0.0 ? -1.0 : 1.0;
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(sign * echelon(i, k), want(i, k), 1e-13) << i << k;
  }
  EXPECT_NEAR(echelon.row(2).norm(), 0.0, 1e-13);
  // Minimum norm (22)-(27) on the printed A', b': y0 = (-sqrt6/2, -sqrt2/6, 0) up to the signs
  // of the reflections, |y0| = sqrt14/3, r0 = H y0 = (1, 2/3, 1/3).
  const Eigen::Matrix<double, 2, 3> a_red = want.leftCols<3>();
  const Eigen::HouseholderQR<Eigen::Matrix<double, 3, 2>> qr2(a_red.transpose());
  const Eigen::Matrix2d u = qr2.matrixQR().topRows<2>().triangularView<Eigen::Upper>();
  Vector3d y = Vector3d::Zero();
  y.head<2>() = u.transpose().triangularView<Eigen::Lower>().solve(want.col(3));
  EXPECT_NEAR(std::abs(y(0)), r6 / 2, 1e-14);
  EXPECT_NEAR(std::abs(y(1)), r2 / 6, 1e-14);
  EXPECT_NEAR(y.norm(), std::sqrt(14.0) / 3, 1e-14);
  expect_vector(Matrix3d(qr2.householderQ()) * y, Vector3d(1, 2.0 / 3, 1.0 / 3), 1e-14, "H y0");
  // The library's reduction (column-pivoting, so its rows may differ) solves the same system.
  const auto s = kinevo::analysis::minimum_norm_rank2(eq.matrix, eq.rhs);
  EXPECT_NEAR(s.y.norm(), std::sqrt(14.0) / 3, 1e-14);
  EXPECT_EQ(s.y(2), 0.0);
  EXPECT_NEAR((s.reduced_matrix * s.solution - s.reduced_rhs).norm(), 0.0, 1e-13);
  expect_vector(s.solution, Vector3d(1, 2.0 / 3, 1.0 / 3), 1e-14, "r0 from point 1");
}

TEST(FiniteScrew, ExampleClosedFormPointForEveryPoint) {
  const auto r = finite_screw(example_p, example_q);
  // Eq. (16), checked for all three points, and for the printed pair (-e... e, 4 pi/3) too.
  for (std::size_t i = 0; i < 3; ++i) {
    expect_vector(
        kinevo::analysis::screw_point_closed_form(r.axis, r.angle, example_p[i], example_q[i]),
        r.point, 1e-14, "(16)");
    expect_vector(kinevo::analysis::screw_point_closed_form(-r.axis, 2 * pi - r.angle, example_p[i],
                                                            example_q[i]),
                  r.point, 1e-14, "(16), printed pair");
  }
  // Fixed p1' - p1 = (1, 0, -1) (printed (1, 0, 1)).
  expect_vector(example_q[0] - example_p[0], Vector3d(1, 0, -1), 0.0, "p1' - p1");
}

// Points moved by the screw (e, theta, a point a on the axis, slide u).
std::vector<Vector3d> screwed(const std::vector<Vector3d>& p, const Vector3d& e, double theta,
                              const Vector3d& a, double u) {
  const Matrix3d q = kinevo::test::rotation_about(e, theta);
  std::vector<Vector3d> out;
  for (const auto& x : p) out.push_back(a + q * (x - a) + u * e);
  return out;
}

void expect_recovered(const std::vector<Vector3d>& p, const Vector3d& e, double theta,
                      const Vector3d& a, double u, double tol) {
  const auto r = finite_screw(p, screwed(p, e, theta, a, u));
  ASSERT_EQ(r.status, screw_status::ok) << r.message;
  expect_vector(r.axis, e, tol, "axis");
  EXPECT_NEAR(r.angle, theta, tol);
  expect_vector(r.point, kinevo::test::closest_to_origin(a, e), tol, "point");
  EXPECT_NEAR(r.slide, u, tol);
}

TEST(FiniteScrew, RandomScrewMotionsRecovered) {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> angle(0.05, pi - 0.05), slide(-3.0, 3.0), count(3, 7);
  for (int trial = 0; trial < 200; ++trial) {
    const auto p = kinevo::test::random_points(rng, static_cast<int>(count(rng)));
    const Vector3d e = kinevo::test::random_unit(rng);
    const Vector3d a = 2.0 * kinevo::test::random_unit(rng);
    SCOPED_TRACE(trial);
    expect_recovered(p, e, angle(rng), a, slide(rng), 1e-10);
  }
}

TEST(FiniteScrew, SmallAndNearHalfTurnAngles) {
  std::mt19937_64 rng(7);
  const auto p = kinevo::test::random_points(rng, 3);
  const Vector3d e = kinevo::test::random_unit(rng), a(0.5, -1.0, 2.0);
  // The axis position of a small rotation is ill-conditioned (its error grows as 1/theta).
  expect_recovered(p, e, 1e-4, a, 0.3, 1e-7);
  expect_recovered(p, e, pi - 1e-7, a, -0.7, 1e-9);
  // A half turn: e and -e are the same rotation; r0 and |u| do not depend on the choice.
  const auto r = finite_screw(p, screwed(p, e, pi, a, 0.4));
  ASSERT_TRUE(r.ok());
  EXPECT_NEAR(r.angle, pi, 1e-12);
  EXPECT_NEAR(std::abs(r.axis.dot(e)), 1.0, 1e-12);
  expect_vector(r.point, kinevo::test::closest_to_origin(a, e), 1e-10, "half-turn point");
  EXPECT_NEAR(r.slide * r.axis.dot(e), 0.4, 1e-12);
}

TEST(FiniteScrew, EquilateralTriangleUsesABodyPoint) {
  // I1 = I2: the in-plane principal axes are undetermined, eqs. (12)-(13).
  const std::vector<Vector3d> p{
      {1, 0, 0}, {-0.5, std::sqrt(3.0) / 2, 0}, {-0.5, -std::sqrt(3.0) / 2, 0}};
  const auto r0 = finite_screw(p, p);
  EXPECT_NEAR(r0.moments(0), r0.moments(1), 1e-7);
  const Vector3d e = Vector3d(1, 2, 2) / 3.0, a(1, -1, 0.5);
  const auto r = finite_screw(p, screwed(p, e, 1.1, a, 0.25));
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_NE(r.frame_method.find("(12)-(13)"), std::string::npos) << r.frame_method;
  expect_vector(r.e_frame.col(0), p[0], 1e-14, "e1 = (p1 - c)/|p1 - c|");
  expect_recovered(p, e, 1.1, a, 0.25, 1e-12);
}

TEST(FiniteScrew, RepeatedMomentsOfMoreThanThreePoints) {
  // A regular tetrahedron (all moments equal) and a square (I1 = I2 in its plane).
  const std::vector<Vector3d> tetra{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
  const std::vector<Vector3d> square{{1, 0, 0}, {0, 1, 0}, {-1, 0, 0}, {0, -1, 0}};
  const std::vector<Vector3d> prism{{1, 0, 0},    {-1, 0, 0},  {0, 0.2, 0},
                                    {0, -0.2, 0}, {0, 0, 0.2}, {0, 0, -0.2}};
  const Vector3d e = Vector3d(2, -1, 2) / 3.0, a(0.3, 0.4, -1);
  for (const auto* p : {&tetra, &square, &prism}) expect_recovered(*p, e, 2.0, a, -1.5, 1e-12);
}

TEST(FiniteScrew, CollinearPointsAreSingular) {
  const std::vector<Vector3d> p{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
  const auto r = finite_screw(p, screwed(p, Vector3d(0, 0, 1), 1.0, Vector3d::Zero(), 0.0));
  EXPECT_EQ(r.status, screw_status::collinear);
  EXPECT_NE(r.message.find("collinear"), std::string::npos);
  EXPECT_TRUE(std::isnan(r.angle));
}

TEST(FiniteScrew, NearlyCollinearPointsReportTheirConditioning) {
  const std::vector<Vector3d> p{{0, 0, 0}, {1, 1e-4, 0}, {2, 0, 0}};
  const Vector3d e(0, 0, 1);
  const auto r = finite_screw(p, screwed(p, e, 0.5, Vector3d(1, 1, 0), 0.1));
  ASSERT_TRUE(r.ok());
  EXPECT_GT(r.conditioning, 1e7);
  EXPECT_NEAR(r.angle, 0.5, 1e-8);
}

TEST(FiniteScrew, NonRigidDataAreRefused) {
  auto q = screwed(example_p, Vector3d(0, 1, 0), 0.3, Vector3d::Zero(), 0.0);
  q[2] += Vector3d(0.01, 0, 0);
  const auto r = finite_screw(example_p, q);
  EXPECT_EQ(r.status, screw_status::not_rigid);
  EXPECT_GT(r.rigidity_violation, 1e-3);
}

TEST(FiniteScrew, PureTranslationHasNoAxisPoint) {
  const auto r = finite_screw(
      example_p, screwed(example_p, Vector3d(0, 0.6, 0.8), 0.0, Vector3d::Zero(), 2.0));
  EXPECT_EQ(r.status, screw_status::pure_translation);
  expect_vector(r.axis, Vector3d(0, 0.6, 0.8), 1e-14, "translation direction");
  EXPECT_EQ(r.angle, 0.0);
  EXPECT_NEAR(r.slide, 2.0, 1e-14);
  EXPECT_TRUE(std::isnan(r.point.x()));
  EXPECT_EQ(finite_screw(example_p, example_p).status, screw_status::no_motion);
}

TEST(FiniteScrew, ReportsAndTable) {
  const auto t =
      kinevo::analysis::read_point_table(std::string(KINEVO_EXAMPLES) + "/screw_finite_points.csv",
                                         kinevo::analysis::point_table_kind::finite);
  ASSERT_EQ(t.first.size(), 3u);
  const auto r = finite_screw(t.first, t.second, {}, t.labels);
  const auto j = r.to_json();
  EXPECT_EQ(j["status"], "ok");
  EXPECT_NEAR(j["angle"].get<double>(), 2 * pi / 3, 1e-14);
  EXPECT_NE(r.full_report().find("slide u"), std::string::npos);
  EXPECT_NE(r.points_csv(t.first, t.second).str().find("axis_distance"), std::string::npos);
}

TEST(FiniteScrew, SlightlyNoisyPointsGiveTheScrewToTheNoiseLevel) {
  // Eight points measured with 1e-9 errors: within the rigidity tolerance, and the screw comes
  // out to about the noise level (the frames come from A and B, not from a fit).
  std::mt19937_64 rng(3);
  std::normal_distribution<double> noise(0.0, 1e-9);
  const auto p = kinevo::test::random_points(rng, 8);
  const Vector3d e = Vector3d(2, 3, 6) / 7.0, a(1, 0, -1);
  auto q = screwed(p, e, 1.3, a, 0.8);
  for (auto& x : q) x += Vector3d(noise(rng), noise(rng), noise(rng));
  const auto r = finite_screw(p, q);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_LT(r.rigidity_violation, 1e-8);
  expect_vector(r.axis, e, 1e-7, "axis");
  EXPECT_NEAR(r.angle, 1.3, 1e-7);
  expect_vector(r.point, kinevo::test::closest_to_origin(a, e), 1e-7, "point");
  EXPECT_NEAR(r.slide, 0.8, 1e-7);
}

}  // namespace
