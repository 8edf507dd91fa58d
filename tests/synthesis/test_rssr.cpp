#include "kinevo/synthesis/linkages/rssr.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/io/csv_table.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "synthesis_test_support.hpp"

namespace ks = kinevo::synthesis;

namespace {
using kinevo::test::deg;
}

// Householder paper, Example 1: 19 points, alpha4 = 90 deg. k recomputed independently; the error
// column is the paper's Table 2 (Householder), to its printed 8 decimals.
TEST(Rssr, NineteenPoints) {
  const auto raw =
      kinevo::io::read_csv_table(std::string(KINEVO_TEST_DATA) + "/synthesis/rssr_19.csv");
  const auto t = ks::function_table_from(raw, false, 6, "test");
  const auto fit = ks::rssr_least_squares(t.input, t.output, 90 * deg);
  const double k_ref[6] = {-0.0818733, 3.4893753, -1.1764544, -1.3955576, -0.3864268, -2.0938118};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(fit.k(i), k_ref[i], 1e-6) << "k" << i + 1;
  const auto err = ks::rssr_errors(fit.k, 90 * deg, t.input, t.output);
  const auto printed = raw.column_values("householder_error_deg");
  ASSERT_EQ(err.size(), printed.size());
  for (std::size_t i = 0; i < err.size(); ++i) {
    EXPECT_NEAR(err[i] / deg, printed[i], 0.6e-8) << "row " << i + 1;
  }
  const auto d = ks::rssr_dimensions_from_k(fit.k, 90 * deg);
  EXPECT_NEAR(d.a1, 0.911269, 1e-6);
  EXPECT_NEAR(d.a2, 2.620598, 1e-6);
  EXPECT_NEAR(d.a3, 0.803577, 1e-6);
  EXPECT_NEAR(d.output_offset, -1.186240, 1e-6);
  EXPECT_NEAR(d.input_offset, -2.417556, 1e-6);
  EXPECT_NEAR(d.phi0 / deg, -21.1279, 1e-4);
}

// General alpha4: the table of a known RSSR, generated from its geometry by bisection (not from
// eq. (11)), gives back its dimensions.
TEST(Rssr, GeneralAlphaRecoversDimensions) {
  ks::rssr_dimensions d;
  d.a1 = 0.9, d.a2 = 2.4, d.a3 = 0.7, d.a4 = 1.0;
  d.alpha4 = 60 * deg;
  d.output_offset = -0.8, d.input_offset = -1.9, d.phi0 = -15 * deg;
  // Geometry in the sign convention of rssr_dimensions_from_k (see rssr.cpp): output link tip
  // P(phi), input link tip Q(psi); the coupler keeps |P - Q| = a2.
  const auto gap = [&](double psi, double phi) {
    const double sa = std::sin(d.alpha4), ca = std::cos(d.alpha4);
    const double f = d.phi0 - phi;
    const double px = -d.a1 * std::cos(f), py = -d.a1 * std::sin(f), pz = -d.output_offset;
    const double qx = d.a4 - d.a3 * std::cos(psi);
    const double qy = -d.a3 * std::sin(psi) * ca - d.input_offset * sa;
    const double qz = -d.a3 * std::sin(psi) * sa + d.input_offset * ca;
    return std::hypot(px - qx, py - qy, pz - qz) - d.a2;
  };
  std::vector<double> psi, phi;
  double guess = 0.0;
  for (int i = 0; i < 13; ++i) {
    const double p = (i * 5.0) * deg;
    // All sign changes of the gap on a grid (the whole turn first, then near the previous
    // output), refined by bisection; keep the root nearest the previous one (one branch).
    const double lo = i == 0 ? -std::numbers::pi : guess - 0.5;
    const double hi = i == 0 ? std::numbers::pi : guess + 0.5;
    const int steps = 2000;
    double best = std::numeric_limits<double>::quiet_NaN();
    for (int s = 0; s < steps; ++s) {
      double x0 = lo + (hi - lo) * s / steps, x1 = lo + (hi - lo) * (s + 1) / steps;
      if (gap(p, x0) * gap(p, x1) > 0.0) continue;
      for (int it = 0; it < 80; ++it) {
        const double m = 0.5 * (x0 + x1);
        (gap(p, x0) * gap(p, m) <= 0.0 ? x1 : x0) = m;
      }
      const double root = 0.5 * (x0 + x1);
      if (std::isnan(best) || std::abs(root - guess) < std::abs(best - guess)) best = root;
    }
    ASSERT_FALSE(std::isnan(best)) << "no assembly at psi " << p;
    ASSERT_LT(std::abs(gap(p, best)), 1e-9);
    psi.push_back(p);
    phi.push_back(best);
    guess = best;
  }
  const auto fit = ks::rssr_least_squares(psi, phi, d.alpha4);
  EXPECT_LT(fit.residual_norm, 1e-9);
  const auto r = ks::rssr_dimensions_from_k(fit.k, d.alpha4, d.a4);
  EXPECT_NEAR(r.a1, d.a1, 1e-7);
  EXPECT_NEAR(r.a2, d.a2, 1e-7);
  EXPECT_NEAR(r.a3, d.a3, 1e-7);
  EXPECT_NEAR(r.output_offset, d.output_offset, 1e-7);
  EXPECT_NEAR(r.input_offset, d.input_offset, 1e-7);
  EXPECT_NEAR(r.phi0, d.phi0, 1e-9);
  const auto k_back = ks::rssr_k_from_dimensions(r);
  EXPECT_LT((k_back - fit.k).norm(), 1e-9);
  for (const double e : ks::rssr_errors(fit.k, d.alpha4, psi, phi)) EXPECT_NEAR(e, 0.0, 1e-8);
}

// The transmission angle from eq. (11) (rssr_transmission_angle) against the geometry of the
// test above: sin mu = |(P - Q) . dP/dphi| / (|a1| a2), P the output link's tip, Q the input
// link's, at the output eq. (11) generates (which the geometry checks: |P - Q| = a2).
TEST(Rssr, TransmissionAngleAgainstGeometry) {
  ks::rssr_dimensions d;
  d.a1 = 0.9, d.a2 = 2.4, d.a3 = 0.7, d.a4 = 1.0;
  d.alpha4 = 60 * deg;
  d.output_offset = -0.8, d.input_offset = -1.9, d.phi0 = -15 * deg;
  const ks::rssr_k k = ks::rssr_k_from_dimensions(d);
  const double sa = std::sin(d.alpha4), ca = std::cos(d.alpha4);
  double near = 0.0;
  int checked = 0;
  for (int i = 0; i < 72; ++i) {
    const double psi = i * 5.0 * deg;
    const double phi = ks::rssr_output(k, d.alpha4, psi, near);
    if (!std::isfinite(phi)) continue;
    near = phi;
    const double f = d.phi0 - phi;
    const Eigen::Vector3d p(-d.a1 * std::cos(f), -d.a1 * std::sin(f), -d.output_offset);
    const Eigen::Vector3d dp(-d.a1 * std::sin(f), d.a1 * std::cos(f), 0.0);  // dP/dphi
    const Eigen::Vector3d q(d.a4 - d.a3 * std::cos(psi),
                            -d.a3 * std::sin(psi) * ca - d.input_offset * sa,
                            -d.a3 * std::sin(psi) * sa + d.input_offset * ca);
    ASSERT_NEAR((p - q).norm(), d.a2, 1e-9) << "psi " << psi / deg;
    const double geometric = std::asin(std::abs((p - q).dot(dp)) / (std::abs(d.a1) * d.a2));
    EXPECT_NEAR(ks::rssr_transmission_angle(k, d, psi, phi), geometric, 1e-9)
        << "psi " << psi / deg;
    ++checked;
  }
  EXPECT_GT(checked, 20);
}
