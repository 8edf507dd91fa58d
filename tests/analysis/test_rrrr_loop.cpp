// RESC11 (RRRR): the fixed equations of Angeles et al., Diseño cinemático de maquinaria, paper
// "Software para el análisis digital de sistemas mecánicos", checked against loop closure, the
// closed form (12) of the dead points, vector-loop velocity closed forms and finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "kinevo/analysis/rrrr_loop.hpp"
#include "kinevo/io/errors.hpp"
#include "loop_test_support.hpp"

namespace kinevo::analysis {
namespace {

using std::numbers::pi;

double closure_error(const rrrr_dimensions& d, double psi, double phi) {
  const std::complex<double> i(0.0, 1.0);
  return std::abs(d.a1 + d.a4 * std::exp(i * phi) - d.a2 * std::exp(i * psi)) - d.a3;
}

TEST(RrrrLoop, BothRootsOfFixedSevenACloseTheLoopOnRandomLinkages) {
  std::mt19937_64 rng(1984);
  std::uniform_real_distribution<double> len(0.5, 3.0), ang(-pi, pi);
  int assembled = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const rrrr_dimensions d{len(rng), len(rng), len(rng), len(rng)};
    const double psi = ang(rng);
    const double diag = std::abs(d.a2 * std::exp(std::complex<double>(0.0, psi)) - d.a1);
    const auto roots = rrrr_output_roots(d, psi);
    const bool should = std::abs(d.a3 - d.a4) < diag && diag < d.a3 + d.a4;
    ASSERT_EQ(!roots.empty(), should) << trial;
    if (roots.empty()) continue;
    ++assembled;
    const auto [k1, k2, k3] = freudenstein_k(d);
    for (const double phi : roots) {
      EXPECT_NEAR(closure_error(d, psi, phi), 0.0, 1e-9) << trial;
      // Eq. (1') in the fixed form consistent with (2) and (5a-c).
      EXPECT_NEAR(k1 - k2 * std::cos(phi) + k3 * std::cos(psi) + std::cos(phi - psi), 0.0, 1e-9);
    }
  }
  EXPECT_GT(assembled, 500);
}

TEST(RrrrLoop, PrintedSevenAWithoutTheLeadingMinusDoesNotClose) {
  std::mt19937_64 rng(1985);
  std::uniform_real_distribution<double> len(0.5, 3.0), ang(-pi, pi);
  int assembled = 0, printed_closes = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const rrrr_dimensions d{len(rng), len(rng), len(rng), len(rng)};
    const double psi = ang(rng);
    if (rrrr_output_roots(d, psi).empty()) continue;
    ++assembled;
    const auto [k1, k2, k3] = freudenstein_k(d);
    const double a = k1 + k2 - (1.0 - k3) * std::cos(psi), b = 2.0 * std::sin(psi),
                 c = k1 - k2 + (1.0 + k3) * std::cos(psi);
    const double t1 = (b + std::copysign(std::sqrt(b * b - 4 * a * c), b)) / (2 * a);  // printed
    if (std::abs(closure_error(d, psi, 2.0 * std::atan(t1))) < 1e-9) ++printed_closes;
  }
  EXPECT_GT(assembled, 100);
  EXPECT_LT(printed_closes, assembled / 20);  // only where -T1 happens to be a root too
}

TEST(RrrrLoop, LeadingCoefficientZeroGivesPhiEqualPi) {
  // A = 0 in (5a): T1 = q/A is infinite, phi1 = pi; the stable (7b) T2 = C/q stays finite.
  const rrrr_dimensions d{1.0, 1.0, 1.0, 2.0};
  const auto [k1, k2, k3] = freudenstein_k(d);
  const double cos_psi = (k1 + k2) / (1.0 - k3);
  ASSERT_LT(std::abs(cos_psi), 1.0);
  const double psi = std::acos(cos_psi);
  const auto roots = rrrr_output_roots(d, psi);
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_NEAR(std::abs(roots[0]), pi, 1e-6);
  for (const double phi : roots) EXPECT_NEAR(closure_error(d, psi, phi), 0.0, 1e-9);
}

TEST(RrrrLoop, BranchesAreTheTwoSidesOfTheDiagonal) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> len(0.5, 3.0), ang(-pi, pi);
  for (int trial = 0; trial < 500; ++trial) {
    rrrr_dimensions d{len(rng), len(rng), len(rng), len(rng)};
    const motion_sample in{0.0, ang(rng), 1.0, 0.0};
    const loop_state up = rrrr_loop(d).state_at(in);
    d.branch = -1;
    const loop_state down = rrrr_loop(d).state_at(in);
    ASSERT_EQ(up.status, down.status);
    if (up.status != loop_status::ok) continue;
    EXPECT_GT(std::sin(up.transmission_angle), 0.0);
    EXPECT_LT(std::sin(down.transmission_angle), 0.0);
    // Transmission angle, eq. (25) fixed: mu = phi - theta.
    EXPECT_NEAR(wrap_angle(up.outputs[0].value - up.outputs[1].value - up.transmission_angle), 0.0,
                1e-12);
  }
}

TEST(RrrrLoop, FixedTenABGiveTheDeadPointsOfClosedFormTwelve) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> len(0.5, 3.0);
  for (int trial = 0; trial < 500; ++trial) {
    const rrrr_dimensions d{len(rng), len(rng), len(rng), len(rng)};
    const auto c = rrrr_dead_point_cosines(d);
    // Eq. (12): cos psi = [a1^2 + a2^2 - (a3 -+ a4)^2]/(2 a1 a2).
    double c12[2] = {
        (d.a1 * d.a1 + d.a2 * d.a2 - (d.a3 + d.a4) * (d.a3 + d.a4)) / (2 * d.a1 * d.a2),
        (d.a1 * d.a1 + d.a2 * d.a2 - (d.a3 - d.a4) * (d.a3 - d.a4)) / (2 * d.a1 * d.a2)};
    EXPECT_NEAR(c[0], c12[0], 1e-9 * (1 + std::abs(c12[0])));
    EXPECT_NEAR(c[1], c12[1], 1e-9 * (1 + std::abs(c12[1])));
    // As printed (over k3 instead of k3^2) they differ whenever k3 != 1.
    const auto [k1, k2, k3] = freudenstein_k(d);
    const double bp = (k2 + k1 * k3) / k3;
    if (std::abs(k3 - 1.0) > 0.1 && std::abs(k2 + k1 * k3) > 0.1) {
      EXPECT_GT(std::abs(bp - (k2 + k1 * k3) / (k3 * k3)), 1e-5);
    }
  }
}

TEST(RrrrLoop, MobilityCasesAndLimitsWhereTheRootsMeet) {
  // Grashof crank-rocker (shortest link the crank): case iii.
  EXPECT_EQ(rrrr_loop({4.0, 1.0, 3.5, 3.0}).mobility().kind, "crank");
  // Double rocker with two limit pairs: case i.
  const rrrr_dimensions d1{2.0, 2.0, 2.5, 0.5};
  const auto m1 = rrrr_loop(d1).mobility();
  EXPECT_EQ(m1.kind, "rocker");
  EXPECT_NE(m1.description.find("case i:"), std::string::npos);
  ASSERT_EQ(m1.limits.size(), 4u);
  // Case ii: one limit pair.
  const rrrr_dimensions d2{2.0, 2.5, 1.3, 1.0};
  const auto m2 = rrrr_loop(d2).mobility();
  EXPECT_NE(m2.description.find("case ii:"), std::string::npos);
  ASSERT_EQ(m2.limits.size(), 2u);
  // At each limit the loop just assembles, and a little beyond it (on one side) it does not.
  for (const auto& [d, m] : {std::pair{d1, m1}, std::pair{d2, m2}}) {
    for (const double l : m.limits) {
      const bool inside = !rrrr_output_roots(d, l + 1e-7).empty();
      const bool outside = !rrrr_output_roots(d, l - 1e-7).empty();
      EXPECT_NE(inside, outside) << l;
    }
  }
}

TEST(RrrrLoop, OutOfRangeIsAStatusNotNaN) {
  const rrrr_loop loop({2.0, 2.5, 1.3, 1.0});
  const loop_state s = loop.state_at({0.0, pi, 1.0, 0.0});
  EXPECT_EQ(s.status, loop_status::out_of_range);
  EXPECT_TRUE(s.outputs.empty());
  EXPECT_EQ(std::string(to_string(s.status)), "out_of_range");
}

TEST(RrrrLoop, RatesMatchTheVectorLoopAndFiniteDifferences) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> len(0.5, 3.0), ang(-pi, pi);
  const test::smooth_motion m{0.0, 1.7, -0.6, 0.4};
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    rrrr_dimensions d{len(rng), len(rng), len(rng),          len(rng),
                      len(rng), ang(rng), trial % 2 ? 1 : -1};
    const rrrr_loop loop(d);
    const double t = ang(rng);
    const motion_sample in = m.at(t);
    const loop_state s = loop.state_at(in);
    if (s.status != loop_status::ok || std::abs(std::sin(s.transmission_angle)) < 0.1) continue;
    // Not near a limit either: the finite differences need the neighbours assembled.
    if (loop.state_at(m.at(t - 1e-3)).status != loop_status::ok ||
        loop.state_at(m.at(t + 1e-3)).status != loop_status::ok)
      continue;
    ++checked;
    const double phi = s.outputs[0].value, th = s.outputs[1].value, psi = in.value;
    // Closed forms from the vector loop (an independent method).
    EXPECT_NEAR(s.outputs[0].rate,
                d.a2 * std::sin(psi - th) / (d.a4 * std::sin(phi - th)) * in.rate, 1e-9);
    EXPECT_NEAR(s.outputs[1].rate,
                d.a2 * std::sin(psi - phi) / (d.a3 * std::sin(phi - th)) * in.rate, 1e-9);
    // Eq. (18), derived: L1 + L2 cos psi + L3 cos theta - cos(psi - theta) = 0.
    const double l1 = (d.a4 * d.a4 - d.a1 * d.a1 - d.a2 * d.a2 - d.a3 * d.a3) / (2 * d.a2 * d.a3);
    EXPECT_NEAR(l1 + d.a1 / d.a3 * std::cos(psi) + d.a1 / d.a2 * std::cos(th) - std::cos(psi - th),
                0.0, 1e-9);
    for (std::size_t o = 0; o < 4; ++o) {
      const auto fd = test::differentiate(loop, m, t, o, o < 2);
      const double scale = 1.0 + std::abs(s.outputs[o].rate) + std::abs(s.outputs[o].accel);
      EXPECT_NEAR(s.outputs[o].rate, fd.rate, 1e-6 * scale) << trial << " output " << o;
      EXPECT_NEAR(s.outputs[o].accel, fd.accel, 1e-5 * scale) << trial << " output " << o;
    }
  }
  EXPECT_GT(checked, 50);
}

TEST(RrrrLoop, CouplerPointIsOnTheCoupler) {
  const rrrr_dimensions d{2.0, 0.8, 2.2, 1.7, 1.1, 0.0, 1};
  const loop_state s = rrrr_loop(d).state_at({0.0, 0.9, 1.0, 0.0});
  ASSERT_EQ(s.status, loop_status::ok);
  // r = a3/2 and alpha = 0: the middle of the coupler, halfway between the two pins.
  const double xb = d.a2 * std::cos(0.9), yb = d.a2 * std::sin(0.9);
  const double xc = d.a1 + d.a4 * std::cos(s.outputs[0].value),
               yc = d.a4 * std::sin(s.outputs[0].value);
  EXPECT_NEAR(s.outputs[2].value, 0.5 * (xb + xc), 1e-12);
  EXPECT_NEAR(s.outputs[3].value, 0.5 * (yb + yc), 1e-12);
}

TEST(RrrrLoop, InvalidDimensionsNameTheField) {
  try {
    rrrr_loop({1.0, -1.0, 1.0, 1.0});
    FAIL();
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "a2");
  }
  try {
    rrrr_loop({1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0});
    FAIL();
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "branch");
  }
}

}  // namespace
}  // namespace kinevo::analysis
