#include "kinevo/synthesis/cams/cam_translating_roller.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "cam_examples.hpp"
#include "synthesis_test_support.hpp"

namespace ks = kinevo::synthesis;
using std::numbers::pi;

namespace {
using kinevo::test::deg;
}  // namespace

// Reference values marked derived: the source's method, (17) and (18a-c) fixed, on Table 1.
TEST(CamTranslatingRoller, SourceDesignDerivedValues) {
  const auto p = kinevo::test::translating_example();
  const ks::translating_roller_options o;
  const auto s = ks::translating_roller_source_design(p, o);
  EXPECT_NEAR(s.psi0 / deg, 69.3667, 5e-5);
  EXPECT_NEAR(s.sigma0.s, 21.358582, 1e-6);
  EXPECT_NEAR(s.sigma0.ds, 78.535501, 1e-6);
  EXPECT_NEAR(s.design.c, 57.334448, 1e-6);
  EXPECT_NEAR(s.design.e, 33.102059, 1e-6);
  EXPECT_NEAR(s.design.base_radius(), 66.204118, 1e-6);
  EXPECT_NEAR(ks::translating_pressure_angle(s.sigma0, s.design) / deg, 30.0, 1e-9);
  EXPECT_NEAR(ks::translating_pressure_angle(p.at(0.1), s.design) / deg, -30.0, 1e-9);
}

// The source design's profile with d = f (rho_k)min (derived) and with the printed d = 16.307,
// and the return-phase pressure angle of -48.14 deg that the source's method does not see.
TEST(CamTranslatingRoller, SourceDesignProfileAndReturnViolation) {
  const auto p = kinevo::test::translating_example();
  ks::translating_roller_options o;
  o.samples = 200000;
  const auto s = ks::translating_roller_source_design(p, o);
  auto a = ks::analyse_translating_roller(p, s.design, o);
  EXPECT_NEAR(a.min_convex_radius, 34.593436, 2e-6);
  EXPECT_NEAR(a.psi_at_min_radius / deg, 87.27, 0.01);
  EXPECT_NEAR(a.roller_radius, 17.296718, 1e-6);
  EXPECT_NEAR(a.section.area, 20248.14, 0.01);
  EXPECT_NEAR(a.section.centroid.x(), -11.059, 5e-4);
  EXPECT_NEAR(a.section.centroid.y(), -19.529, 5e-4);
  EXPECT_NEAR(a.max_pressure_angle / deg, 30.0, 1e-4);
  EXPECT_NEAR(a.min_pressure_angle / deg, -48.14, 0.005);
  EXPECT_NEAR(a.psi_at_min / deg, 317.05, 0.01);
  EXPECT_FALSE(a.undercut);
  ks::apply_roller(a, 16.307);
  EXPECT_NEAR(a.section.area, 20765.55, 0.01);
  EXPECT_NEAR(a.section.centroid.x(), -11.024, 5e-4);
  EXPECT_NEAR(a.section.centroid.y(), -19.525, 5e-4);
  EXPECT_NEAR(a.section.iyy, 40189802, 2);
  EXPECT_NEAR(a.section.ixx, 31501074, 2);
}

// (25b) fixed: rho = N / D with D = s^2 + (s' - e)(2s' - e) - s s'' equals the pitch curve's
// radius from cam_curve (itself checked against finite differences in test_cam_profile).
TEST(CamTranslatingRoller, PitchCurvatureMatchesEquation25) {
  const auto p = kinevo::test::translating_example();
  const ks::translating_roller_design d{57.334448, 33.102059};
  ks::translating_roller_options o;
  o.samples = 720;
  const auto a = ks::analyse_translating_roller(p, d, o);
  for (const auto& x : a.samples) {
    const double s = d.c + x.sigma.s, sp = x.sigma.ds, spp = x.sigma.dds;
    const double n = std::pow(s * s + (sp - d.e) * (sp - d.e), 1.5);
    const double den = s * s + (sp - d.e) * (2 * sp - d.e) - s * spp;
    EXPECT_NEAR(x.radius, n / den, 1e-9 * std::abs(n / den)) << x.psi;
  }
}

// Independent check of a design: the pressure angle by (8) on a dense grid not used by the
// optimiser (an odd count, shifted by half a step).
double dense_max_abs_pressure(const ks::cam_motion_programme& p,
                              const ks::translating_roller_design& d) {
  const int n = 1'000'003;
  double m = 0.0;
  for (int i = 0; i < n; ++i) {
    const auto v = p.at(2 * pi * (i + 0.5) / n);
    m = std::max(m, std::abs(std::acos((d.c + v.s) / std::hypot(v.ds - d.e, d.c + v.s))));
  }
  return m;
}

TEST(CamTranslatingRoller, OptimumMeetsTheBoundOverTheWholeTurn) {
  const auto p = kinevo::test::translating_example();
  const ks::translating_roller_options o;
  const auto r = ks::optimise_translating_roller(p, o);
  ASSERT_TRUE(r.found);
  EXPECT_FALSE(r.curvature_active);
  EXPECT_LE(dense_max_abs_pressure(p, r.design), 30.0 * deg);
  EXPECT_GT(dense_max_abs_pressure(p, r.design), 29.999 * deg);  // the bound is active
  // Nearest point of the wedge: on the apex or an edge, e between its lines.
  const double t = std::tan(30 * deg);
  EXPECT_GE(r.design.e, r.wedge_a - t * r.design.c - 1e-6);
  EXPECT_LE(r.design.e, r.wedge_b + t * r.design.c + 1e-6);
  // Every point of a small circle around the optimum that is smaller breaks the bound.
  for (double b = 0.0; b < 2 * pi; b += 0.1) {
    const ks::translating_roller_design q{r.design.c + 0.05 * std::cos(b),
                                          r.design.e + 0.05 * std::sin(b)};
    if (q.base_radius() < r.design.base_radius() - 1e-3) {
      EXPECT_GT(dense_max_abs_pressure(p, q), 30.0 * deg) << b;
    }
  }
  const auto a = ks::analyse_translating_roller(p, r.design, o);
  EXPECT_FALSE(a.undercut);
  EXPECT_LT(a.roller_radius, a.min_convex_radius);
}

// A required roller radius that the pressure-angle optimum cannot carry makes the curvature bound
// active: the design grows until f (rho_k)min reaches it, and still meets the pressure bound.
TEST(CamTranslatingRoller, CurvatureBoundGrowsTheCam) {
  const auto p = kinevo::test::translating_example();
  ks::translating_roller_options o;
  const auto free = ks::optimise_translating_roller(p, o);
  const double d_free = ks::analyse_translating_roller(p, free.design, o).roller_radius;
  o.min_roller_radius = 1.5 * d_free;
  const auto r = ks::optimise_translating_roller(p, o);
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.curvature_active);
  EXPECT_GT(r.design.base_radius(), free.design.base_radius());
  EXPECT_LE(dense_max_abs_pressure(p, r.design), 30.0 * deg);
  const auto a = ks::analyse_translating_roller(p, r.design, o);
  EXPECT_GE(o.roller_fraction * a.min_convex_radius, o.min_roller_radius * (1 - 1e-9));
  EXPECT_FALSE(a.undercut);
}

TEST(CamTranslatingRoller, NoDesignInATooSmallBox) {
  const auto p = kinevo::test::translating_example();
  ks::translating_roller_options o;
  o.c_max = 20.0;
  EXPECT_FALSE(ks::optimise_translating_roller(p, o).found);
}
