#include "kinevo/synthesis/cams/cam_motion_programme.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "cam_examples.hpp"
#include "kinevo/io/errors.hpp"

namespace ks = kinevo::synthesis;
using std::numbers::pi;

// Reference (derived/checked): k = 0.641908 normalises R(pi) = 1; R'(pi/2) = 2/pi exactly.
TEST(CamBasicFunction, NormalisationAndSlope) {
  const auto& r = ks::cam_basic_function::instance();
  EXPECT_NEAR(r.k(), 0.641908, 5e-7);
  EXPECT_NEAR(r(pi), 1.0, 1e-14);
  EXPECT_NEAR(r(0.0), 0.0, 1e-15);
  EXPECT_NEAR(r(pi / 2, 1), 2.0 / pi, 1e-14);
  EXPECT_NEAR(r(pi / 2), 0.5, 1e-14);  // odd about pi/2
  EXPECT_NEAR(r(pi, 1), 0.0, 1e-14);
  EXPECT_NEAR(r(0.3, 2), -r(pi - 0.3, 2), 1e-14);
}

// The knot accelerations are k sin 2u_i, linear in between.
TEST(CamBasicFunction, KnotAccelerations) {
  const auto& r = ks::cam_basic_function::instance();
  for (int i = 0; i <= 20; ++i) {
    const double u = i * pi / 20;
    EXPECT_NEAR(r(u, 2), r.k() * std::sin(2 * u), 1e-13) << i;
  }
}

// sigma' and sigma'' against central differences of sigma (and sigma''' of sigma'').
TEST(CamMotionProgramme, DerivativesAgreeWithDifferences) {
  const auto p = kinevo::test::translating_example();
  const double h = 1e-5;
  for (double psi = 0.05; psi < 2 * pi; psi += 0.0731) {
    const auto v = p.at(psi);
    EXPECT_NEAR(v.ds, (p.at(psi + h).s - p.at(psi - h).s) / (2 * h), 1e-5) << psi;
    EXPECT_NEAR(v.dds, (p.at(psi + h).ds - p.at(psi - h).ds) / (2 * h), 1e-4) << psi;
  }
  EXPECT_NEAR(p.at(pi / 180 * 108).s, 50.0, 1e-12);              // end of the rise
  EXPECT_NEAR(p.at(pi / 180 * 306).s, 50.0 * (1 - 0.5), 1e-12);  // middle of the return
  EXPECT_NEAR(p.at(2 * pi - 1e-12).s, 0.0, 1e-9);
  EXPECT_NEAR(p.at(-0.1).s, p.at(2 * pi - 0.1).s, 1e-12);  // periodic
}

TEST(CamMotionProgramme, RefusesInconsistentPhases) {
  using K = ks::cam_phase_kind;
  EXPECT_THROW(ks::cam_motion_programme({{K::rise, pi, 1.0}, {K::fall, pi, 2.0}}),
               kinevo::io::option_error);
  EXPECT_THROW(ks::cam_motion_programme({{K::rise, pi, 1.0}, {K::fall, 0.5 * pi, 1.0}}),
               kinevo::io::option_error);
  EXPECT_THROW(ks::cam_motion_programme({{K::fall, pi, 1.0}, {K::rise, pi, 1.0}}),
               kinevo::io::option_error);
  EXPECT_THROW(ks::cam_motion_programme({{K::dwell, pi, 1.0}, {K::dwell, pi, 0.0}}),
               kinevo::io::option_error);
  EXPECT_NO_THROW(ks::cam_motion_programme({{K::rise, pi, 1.0}, {K::fall, pi, 1.0}}));
}
