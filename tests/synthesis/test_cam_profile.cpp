#include "kinevo/synthesis/cams/cam_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace ks = kinevo::synthesis;
using std::numbers::pi;

namespace {
// Regular n-gon of circumradius 1 (closed forms): area n/2 sin(2pi/n), second moment about a
// centroidal axis n/24 sin(2pi/n) (2 + cos(2pi/n)).
double ngon_area(int n) {
  return n / 2.0 * std::sin(2 * pi / n);
}
double ngon_moment(int n) {
  return n / 24.0 * std::sin(2 * pi / n) * (2 + std::cos(2 * pi / n));
}
}  // namespace

TEST(CamSectionProperties, RegularPolygonOfACircle) {
  const int n = 360;
  const double r = 3.0;
  std::vector<Eigen::Vector2d> poly;
  for (int i = 0; i < n; ++i) {
    poly.emplace_back(1.5 + r * std::cos(2 * pi * i / n), -2.0 + r * std::sin(2 * pi * i / n));
  }
  auto s = ks::polygon_properties(poly);
  EXPECT_NEAR(s.area, r * r * ngon_area(n), 1e-11);
  EXPECT_NEAR(s.centroid.x(), 1.5, 1e-12);
  EXPECT_NEAR(s.centroid.y(), -2.0, 1e-12);
  EXPECT_NEAR(s.ixx, std::pow(r, 4) * ngon_moment(n), 1e-10);
  EXPECT_NEAR(s.iyy, std::pow(r, 4) * ngon_moment(n), 1e-10);
  EXPECT_NEAR(s.ixy, 0.0, 1e-10);
  std::reverse(poly.begin(), poly.end());  // clockwise: the same section
  const auto t = ks::polygon_properties(poly);
  EXPECT_NEAR(t.area, s.area, 1e-11);
  EXPECT_NEAR(t.ixx, s.ixx, 1e-10);
}

// The n-gon of an ellipse is the unit n-gon stretched by (a, b): area a b A1, int y^2 = a b^3 I1,
// int x^2 = a^3 b I1; turned by beta, the principal moments stay and the axis turns with it.
TEST(CamSectionProperties, RotatedEllipsePolygon) {
  const int n = 720;
  const double a = 4.0, b = 1.5, beta = 0.4;
  std::vector<Eigen::Vector2d> poly;
  for (int i = 0; i < n; ++i) {
    const double x = a * std::cos(2 * pi * i / n), y = b * std::sin(2 * pi * i / n);
    poly.emplace_back(-1.0 + std::cos(beta) * x - std::sin(beta) * y,
                      0.5 + std::sin(beta) * x + std::cos(beta) * y);
  }
  const auto s = ks::polygon_properties(poly);
  EXPECT_NEAR(s.area, a * b * ngon_area(n), 1e-10);
  EXPECT_NEAR(s.centroid.x(), -1.0, 1e-12);
  EXPECT_NEAR(s.centroid.y(), 0.5, 1e-12);
  // About the ellipse's own axes: int y'^2 = a b^3 I, int x'^2 = a^3 b I; the larger, int x'^2,
  // belongs to the axis across the long one.
  EXPECT_NEAR(s.i1, a * a * a * b * ngon_moment(n), 1e-9);
  EXPECT_NEAR(s.i2, a * b * b * b * ngon_moment(n), 1e-9);
  EXPECT_NEAR(s.ixx + s.iyy, s.i1 + s.i2, 1e-9);
  EXPECT_NEAR(std::abs(std::sin(s.principal_angle - (beta + pi / 2))), 0.0, 1e-9);
}

// cam_curve's radius of curvature against a parametric finite-difference curvature of the curve
// it returns, for a follower point moving on an arbitrary smooth path, both senses.
TEST(CamCurve, CurvatureAgreesWithFiniteDifferences) {
  const auto point = [](double psi) {
    ks::follower_point f;
    f.p = {0.3 + 0.2 * std::sin(psi), 2.0 + 0.5 * std::cos(2 * psi)};
    f.dp = {0.2 * std::cos(psi), -1.0 * std::sin(2 * psi)};
    f.ddp = {-0.2 * std::sin(psi), -2.0 * std::cos(2 * psi)};
    return f;
  };
  for (int sense : {1, -1}) {
    for (double psi = 0.1; psi < 6.2; psi += 0.37) {
      const double h = 1e-4;
      const auto c = ks::cam_curve(point(psi), psi, sense);
      const auto xm = ks::cam_curve(point(psi - h), psi - h, sense).x;
      const auto xp = ks::cam_curve(point(psi + h), psi + h, sense).x;
      const Eigen::Vector2d d1 = (xp - xm) / (2 * h), d2 = (xp - 2 * c.x + xm) / (h * h);
      const double k = (d1.x() * d2.y() - d1.y() * d2.x()) / std::pow(d1.norm(), 3);
      // The convex side turns against the running direction (clockwise for sense +1).
      EXPECT_NEAR(1.0 / c.radius, -sense * k, 1e-6) << sense << " " << psi;
      EXPECT_NEAR(c.outward.dot(d1), 0.0, 1e-6);
      EXPECT_GT(c.outward.dot(c.x), 0.0);  // a curve around the centre: outward points away
    }
  }
}
