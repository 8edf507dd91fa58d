// RESC12 (RPRR, driven by a length): eqs. (26)-(31) of Angeles et al., Diseño cinemático de
// maquinaria, paper "Software para el análisis digital de sistemas mecánicos", and the corrected
// second derivatives that replace the printed (32)-(33), against finite differences.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "kinevo/analysis/rprr_loop.hpp"
#include "loop_test_support.hpp"

namespace kinevo::analysis {
namespace {

TEST(RprrLoop, ClosesTheLoopOnBothBranches) {
  std::mt19937_64 rng(26);
  std::uniform_real_distribution<double> len(0.5, 3.0), u(0.0, 1.0);
  for (int trial = 0; trial < 500; ++trial) {
    const rprr_dimensions d{len(rng), len(rng), trial % 2 ? 1 : -1};
    const double a = std::abs(d.a1 - d.a2) + u(rng) * (d.a1 + d.a2 - std::abs(d.a1 - d.a2));
    const loop_state s = rprr_loop(d).state_at({0.0, a, 0.3, 0.1});
    if (s.status != loop_status::ok) continue;
    const double psi = s.outputs[0].value, th = s.outputs[1].value;
    EXPECT_NEAR(a * std::cos(th), d.a2 * std::cos(psi) + d.a1, 1e-12);  // eq. (29a)
    EXPECT_NEAR(a * std::sin(th), d.a2 * std::sin(psi), 1e-12);         // eq. (29b)
    EXPECT_EQ(std::sin(psi) > 0.0, d.branch > 0);
  }
}

TEST(RprrLoop, CorrectedRatesAndAccelerationsMatchFiniteDifferences) {
  const test::smooth_motion m{2.6, 0.0, 0.0, 0.4};  // the reference's a(t) = 2.6 + 0.4 sin t
  for (const int branch : {1, -1}) {
    const rprr_loop loop({2.0, 1.3, branch});
    for (const double t : {0.7, -0.3, 1.2, 2.5}) {
      const loop_state s = loop.state_at(m.at(t));
      ASSERT_EQ(s.status, loop_status::ok);
      for (std::size_t o = 0; o < 2; ++o) {
        const auto fd = test::differentiate(loop, m, t, o, true);
        EXPECT_NEAR(s.outputs[o].rate, fd.rate, 1e-8) << t << " " << o;
        EXPECT_NEAR(s.outputs[o].accel, fd.accel, 1e-7) << t << " " << o;
      }
    }
  }
}

TEST(RprrLoop, PrintedThirtyThreeIsWrong) {
  // The printed theta-ddot (33) has (1 + cos^2 g) and a^2 where the corrected has (1 + sin^2 g)
  // and a: it misses the finite difference the corrected form meets.
  const double a1 = 2.0, a2 = 1.3;
  const test::smooth_motion m{2.6, 0.0, 0.0, 0.4};
  const rprr_loop loop({a1, a2, 1});
  const motion_sample in = m.at(0.7);
  const loop_state s = loop.state_at(in);
  const double g = s.outputs[0].value - s.outputs[1].value, a = in.value;
  const double printed = (a2 * std::cos(g) * (1 + std::cos(g) * std::cos(g)) - a * a) /
                             (a2 * a * a * std::pow(std::sin(g), 3)) * in.rate * in.rate -
                         in.accel / (a * std::tan(g));
  const auto fd = test::differentiate(loop, m, 0.7, 1, true);
  EXPECT_GT(std::abs(printed - fd.accel), 1e-3);
  EXPECT_NEAR(s.outputs[1].accel, fd.accel, 1e-7);
}

TEST(RprrLoop, LengthsOutsideTheStrokeAreOutOfRange) {
  const rprr_loop loop({2.0, 1.3, 1});
  EXPECT_EQ(loop.state_at({0.0, 3.4, 1.0, 0.0}).status, loop_status::out_of_range);
  EXPECT_EQ(loop.state_at({0.0, 0.6, 1.0, 0.0}).status, loop_status::out_of_range);
  EXPECT_EQ(loop.state_at({0.0, 3.3, 1.0, 0.0}).status, loop_status::dead_point);
  const auto m = loop.mobility();
  ASSERT_EQ(m.limits.size(), 2u);
  EXPECT_DOUBLE_EQ(m.limits[0], 0.7);
  EXPECT_DOUBLE_EQ(m.limits[1], 3.3);
}

}  // namespace
}  // namespace kinevo::analysis
