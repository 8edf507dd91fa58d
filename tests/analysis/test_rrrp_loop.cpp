// RESC13 (RRRP, offset slider-crank): eqs. (34)-(38) of Angeles et al., Diseño cinemático de
// maquinaria, paper "Software para el análisis digital de sistemas mecánicos", with the signs of
// (35) and (37a) fixed and (38a,b) corrected, against loop closure and finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "kinevo/analysis/rrrp_loop.hpp"
#include "loop_test_support.hpp"

namespace kinevo::analysis {
namespace {

using std::numbers::pi;

TEST(RrrpLoop, ClosesTheLoopOnBothBranches) {
  std::mt19937_64 rng(34);
  std::uniform_real_distribution<double> len(0.5, 3.0), ang(-pi, pi), off(-1.0, 1.0);
  int ok = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const rrrp_dimensions d{off(rng), len(rng), len(rng), trial % 2 ? 1 : -1};
    const double psi = ang(rng);
    const loop_state s = rrrp_loop(d).state_at({0.0, psi, 1.0, 0.0});
    if (s.status != loop_status::ok) {
      EXPECT_GT(std::abs(d.a1 + d.a2 * std::sin(psi)), d.a3 * (1 - 1e-12));
      continue;
    }
    ++ok;
    const double phi = s.outputs[0].value, a = s.outputs[1].value;
    EXPECT_NEAR(a, d.a2 * std::cos(psi) + d.a3 * std::cos(phi), 1e-12);     // (34a)
    EXPECT_NEAR(d.a1, d.a3 * std::sin(phi) - d.a2 * std::sin(psi), 1e-12);  // (34b)
    EXPECT_EQ(std::cos(phi) > 0.0, d.branch > 0);
    // The printed sign of (35), asin((a1 - a2 sin psi)/a3), does not close (34b) in general.
    const double printed = std::asin(std::clamp((d.a1 - d.a2 * std::sin(psi)) / d.a3, -1.0, 1.0));
    if (std::abs(d.a2 * std::sin(psi)) > 0.1 && d.branch > 0) {
      EXPECT_GT(std::abs(d.a3 * std::sin(printed) - d.a2 * std::sin(psi) - d.a1), 1e-3);
    }
  }
  EXPECT_GT(ok, 100);
}

TEST(RrrpLoop, FixedRatesAndAccelerationsMatchFiniteDifferences) {
  const test::smooth_motion m{0.5, 2.0, 0.3, 0.2};
  for (const int branch : {1, -1}) {
    const rrrp_loop loop({0.3, 1.0, 2.5, branch});
    for (const double t : {0.4, -1.0, 1.3, 2.9}) {
      const loop_state s = loop.state_at(m.at(t));
      ASSERT_EQ(s.status, loop_status::ok);
      for (std::size_t o = 0; o < 2; ++o) {
        const auto fd = test::differentiate(loop, m, t, o, o == 0);
        EXPECT_NEAR(s.outputs[o].rate, fd.rate, 1e-7) << t << " " << o;
        EXPECT_NEAR(s.outputs[o].accel, fd.accel, 1e-6) << t << " " << o;
      }
    }
  }
}

TEST(RrrpLoop, LimitThirtySixAPutsTheCouplerNormalToTheSlide) {
  const rrrp_dimensions d{0.3, 1.0, 1.2, 1};
  const auto m = rrrp_loop(d).mobility();
  EXPECT_EQ(m.kind, "rocker");
  ASSERT_EQ(m.limits.size(), 2u);  // (a3 - a1)/a2 = 0.9 inside, (-a3 - a1)/a2 = -1.5 outside
  for (const double l : m.limits) {
    EXPECT_NEAR((d.a1 + d.a2 * std::sin(l)) / d.a3, 1.0, 1e-12);
    EXPECT_EQ(rrrp_loop(d).state_at({0.0, l, 1.0, 0.0}).status, loop_status::dead_point);
  }
  EXPECT_EQ(rrrp_loop({0.3, 1.0, 2.5, 1}).mobility().kind, "crank");
  EXPECT_EQ(rrrp_loop(d).state_at({0.0, pi / 2, 1.0, 0.0}).status, loop_status::out_of_range);
}

}  // namespace
}  // namespace kinevo::analysis
