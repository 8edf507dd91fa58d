#include "kinevo/synthesis/cams/cam_oscillating_roller.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "cam_examples.hpp"
#include "synthesis_test_support.hpp"

namespace ks = kinevo::synthesis;
using std::numbers::pi;

namespace {
using kinevo::test::deg;

// (5) from the geometry, written out again: the angle between the pitch curve's normal (the
// relative velocity of the roller centre turned by 90 deg) and the roller centre's velocity.
double geometric_pressure_angle(const ks::programme_value& v,
                                const ks::oscillating_roller_design& d, int sense) {
  const double phi = d.c + v.s, b = d.b_ratio;
  const Eigen::Vector2d p(1 - b * std::cos(phi), b * std::sin(phi));
  const Eigen::Vector2d u(std::sin(phi), std::cos(phi));  // the arm's velocity direction
  const Eigen::Vector2d rel = b * v.ds * u - sense * Eigen::Vector2d(-p.y(), p.x());
  return std::acos(std::abs(rel.x() * u.y() - rel.y() * u.x()) / rel.norm());
}

double dense_max_abs(const ks::cam_motion_programme& p, const ks::oscillating_roller_design& d,
                     int sense) {
  const int n = 1'000'003;
  double m = 0.0;
  for (int i = 0; i < n; ++i) {
    m = std::max(m, geometric_pressure_angle(p.at(2 * pi * (i + 0.5) / n), d, sense));
  }
  return m;
}
}  // namespace

// (5) with k = 1 + sense phi' is the geometric pressure angle for either sense of rotation.
TEST(CamOscillatingRoller, EquationFiveMatchesTheGeometry) {
  const auto p = kinevo::test::oscillating_example();
  const ks::oscillating_roller_design d{0.57, 55.64 * deg};
  for (int sense : {1, -1}) {
    for (double psi = 0.0; psi < 2 * pi; psi += 0.05) {
      const auto v = p.at(psi);
      EXPECT_NEAR(std::abs(ks::oscillating_pressure_angle(v, d, sense)),
                  geometric_pressure_angle(v, d, sense), 1e-12);
    }
  }
}

// Derived: the printed B = 0.57, c = 55.64 deg reaches |alpha| = 49.27 deg at psi = 79.21 deg
// (counterclockwise, 1 + phi') and 43.81 deg at 289.12 deg (clockwise, 1 - phi'), not 30.
TEST(CamOscillatingRoller, PrintedDesignBreaksItsBound) {
  const auto p = kinevo::test::oscillating_example();
  ks::oscillating_roller_options o;
  o.samples = 200000;
  const ks::oscillating_roller_design d{0.57, 55.64 * deg};
  const auto ccw = ks::analyse_oscillating_roller(p, d, o);
  EXPECT_NEAR(ccw.max_abs_pressure_angle() / deg, 49.27, 0.005);
  EXPECT_NEAR(ccw.psi_at_min / deg, 79.21, 0.01);
  o.sense = -1;
  const auto cw = ks::analyse_oscillating_roller(p, d, o);
  EXPECT_NEAR(cw.max_abs_pressure_angle() / deg, 43.81, 0.005);
  EXPECT_NEAR(cw.min_convex_radius, 0.382, 0.0005);  // matches the printed r_m
}

// Derived: with cos c = B no B reaches 30 deg; the best is 42.03 deg.
TEST(CamOscillatingRoller, SourceConditionCannotMeetThirtyDegrees) {
  const auto p = kinevo::test::oscillating_example();
  double best = 1e9;
  for (int sense : {1, -1}) {
    ks::oscillating_roller_options o;
    o.sense = sense;
    best = std::min(best, ks::oscillating_roller_source_best(p, o).max_abs_pressure_angle);
  }
  EXPECT_NEAR(best / deg, 42.03, 0.01);
  EXPECT_GT(best, 30 * deg);
}

TEST(CamOscillatingRoller, OptimumMeetsTheBoundOverTheWholeTurn) {
  const auto p = kinevo::test::oscillating_example();
  const ks::oscillating_roller_options o;
  const auto r = ks::optimise_oscillating_roller(p, o);
  ASSERT_TRUE(r.found);
  EXPECT_LE(dense_max_abs(p, r.design, 1), 30.0 * deg);
  const auto a = ks::analyse_oscillating_roller(p, r.design, o);
  EXPECT_FALSE(a.undercut);
  EXPECT_NEAR(a.roller_radius, std::min(0.75 * a.min_convex_radius, 0.8 * r.design.b_ratio), 1e-12);
  EXPECT_LT(a.roller_radius, r.design.b_ratio);  // the roller leaves the pivot outside
}

// An independent grid search around the optimum (B step 0.0005, c step 0.01 deg, 2880 samples of
// the geometric pressure angle) finds nothing meaningfully smaller that meets the bound.
TEST(CamOscillatingRoller, OptimumAgreesWithAGridSearch) {
  const auto p = kinevo::test::oscillating_example();
  const ks::oscillating_roller_options o;
  const auto r = ks::optimise_oscillating_roller(p, o);
  ASSERT_TRUE(r.found);
  std::vector<ks::programme_value> v;
  for (int i = 0; i < 2880; ++i) v.push_back(p.at(2 * pi * i / 2880));
  double best = 1e9;
  for (double b = r.design.b_ratio - 0.01; b <= r.design.b_ratio + 0.01; b += 0.0005) {
    for (double c = r.design.c - 1 * deg; c <= r.design.c + 1 * deg; c += 0.01 * deg) {
      bool ok = true;
      for (const auto& x : v) {
        if (geometric_pressure_angle(x, {b, c}, 1) > 30 * deg) {
          ok = false;
          break;
        }
      }
      if (ok) {
        best = std::min(best, std::sqrt(1 + b * b - 2 * b * std::cos(c)));
        break;  // larger c only grows the base radius
      }
    }
  }
  const double mine = ks::oscillating_base_radius(p, r.design, o.samples);
  EXPECT_LT(mine, best * (1 + 2e-4));
}

TEST(CamOscillatingRoller, NoDesignInATooSmallBox) {
  const auto p = kinevo::test::oscillating_example();
  ks::oscillating_roller_options o;
  o.c_min = 10 * deg;
  o.c_max = 20 * deg;
  o.b_min = 0.8;
  EXPECT_FALSE(ks::optimise_oscillating_roller(p, o).found);
}
