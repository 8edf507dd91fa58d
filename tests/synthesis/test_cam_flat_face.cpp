#include "kinevo/synthesis/cams/cam_flat_face.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "cam_examples.hpp"

namespace ks = kinevo::synthesis;
using std::numbers::pi;

// Derived: max|s'| = 2h / (return interval) = 7.957747, r_b = 15.915494, min radius 0.4017.
TEST(CamFlatFace, ExampleDerivedValues) {
  const auto p = kinevo::test::flat_face_example();
  ks::flat_face_options o;
  const auto d = ks::design_flat_face(p, o);
  EXPECT_NEAR(d.max_abs_ds, 7.957747, 1e-6);
  EXPECT_NEAR(d.max_abs_ds, 2 * 5.0 / (72 * pi / 180), 1e-9);
  EXPECT_NEAR(d.base_radius, 15.915494, 1e-6);
  o.samples = 200000;
  const auto a = ks::analyse_flat_face(p, d.base_radius, o);
  EXPECT_NEAR(a.min_convex_radius, 0.4017, 5e-5);
  EXPECT_NEAR(a.psi_at_min_radius * 180 / pi, 306.0, 0.01);
  EXPECT_DOUBLE_EQ(a.max_abs_pressure_angle(), 0.0);
}

// The contact curve's radius of curvature equals r_b + s + s'' everywhere.
TEST(CamFlatFace, CurvatureIsBasePlusSigmaPlusSecondDerivative) {
  const auto p = kinevo::test::flat_face_example();
  ks::flat_face_options o;
  o.samples = 720;
  const auto a = ks::analyse_flat_face(p, 15.915494, o);
  for (const auto& x : a.samples) {
    EXPECT_NEAR(x.radius, 15.915494 + x.sigma.s + x.sigma.dds, 1e-9) << x.psi;
  }
}

// A curvature margin raises the base radius just enough.
TEST(CamFlatFace, CurvatureMarginRaisesTheBaseRadius) {
  const auto p = kinevo::test::flat_face_example();
  ks::flat_face_options o;
  o.min_radius_of_curvature = 3.0;
  const auto d = ks::design_flat_face(p, o);
  EXPECT_GT(d.base_radius, 15.915494);
  o.samples = 200000;
  const auto a = ks::analyse_flat_face(p, d.base_radius, o);
  EXPECT_NEAR(a.min_convex_radius, 3.0, 1e-6);
}
