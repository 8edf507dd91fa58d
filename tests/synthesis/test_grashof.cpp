#include "kinevo/synthesis/linkages/grashof.hpp"

#include <gtest/gtest.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <numbers>

#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"

namespace ks = kinevo::synthesis;

// The crank conditions (18)/(19) agree with the classical Grashof rule and with a direct sweep of
// the input on random linkages (fixed seed).
TEST(Grashof, CrankConditionsAgreeWithGrashofAndSweep) {
  boost::random::mt19937 rng(7);
  boost::random::uniform_real_distribution<double> u(0.2, 3.0);
  int cranks = 0, checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const ks::fourbar_links l{1.0, u(rng), u(rng), u(rng)};
    const auto type = ks::grashof_type(l);
    if (type == "change-point") continue;
    // Skip linkages that do not close (one link longer than the other three together).
    const double longest = std::max({l.a1, l.a2, l.a3, l.a4});
    if (2 * longest >= l.a1 + l.a2 + l.a3 + l.a4) continue;
    const Eigen::Vector3d k = ks::k_from_links(l);
    const bool in = ks::input_crank(k).crank;
    const bool out = ks::output_crank(k).crank;
    const bool grashof_in = type == "double-crank" || (type == "crank-rocker" && l.a2 <= l.a4);
    const bool grashof_out = type == "double-crank" || (type == "crank-rocker" && l.a4 <= l.a2);
    EXPECT_EQ(in, grashof_in) << l.a2 << " " << l.a3 << " " << l.a4;
    EXPECT_EQ(out, grashof_out) << l.a2 << " " << l.a3 << " " << l.a4;
    EXPECT_EQ(in, ks::input_turns_fully(k, 720));
    EXPECT_EQ(out, ks::output_turns_fully(k, 720));
    cranks += in;
    ++checked;
  }
  EXPECT_GT(checked, 500);
  EXPECT_GT(cranks, 50);
}

// Analytic gradients and Hessians (eqs. (43), (44), (46), (47) with the corrected (3,3) entry)
// against central differences.
TEST(Grashof, DerivativesMatchFiniteDifferences) {
  using fn = double (*)(const Eigen::VectorXd&, Eigen::VectorXd*, Eigen::MatrixXd*);
  for (const fn f : {fn{ks::input_crank_f1}, fn{ks::input_crank_f2}, fn{ks::input_crank_h1},
                     fn{ks::input_crank_h2}}) {
    const Eigen::VectorXd k = Eigen::Vector3d(0.3, 0.9, -0.4);
    Eigen::VectorXd g;
    Eigen::MatrixXd h;
    f(k, &g, &h);
    const double e = 1e-5;
    for (int i = 0; i < 3; ++i) {
      Eigen::VectorXd p = k, m = k, gp, gm;
      p(i) += e;
      m(i) -= e;
      EXPECT_NEAR(g(i), (f(p, nullptr, nullptr) - f(m, nullptr, nullptr)) / (2 * e), 1e-7);
      f(p, &gp, nullptr);
      f(m, &gm, nullptr);
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(h(j, i), (gp(j) - gm(j)) / (2 * e), 1e-6);
    }
  }
}

// Rocker limits (12a) are where the discriminant vanishes, and they match the closed form (12b)
// cos psi = (a1^2 + a2^2 - (a3 +- a4)^2) / (2 a1 a2).
TEST(Grashof, RockerLimits) {
  const ks::fourbar_links l{1.0, 1.5, 1.2, 0.8};  // double-rocker input
  const Eigen::Vector3d k = ks::k_from_links(l);
  const auto lim = ks::input_rocker_limits(k);
  ASSERT_GE(lim.count, 1);
  for (int i = 0; i < lim.count; ++i) {
    const double c = lim.cos_limit[i];
    EXPECT_NEAR(ks::fourbar_discriminant(k, std::acos(c)), 0.0, 1e-12);
    const double c_plus = (1 + 2.25 - 4.0) / 3.0, c_minus = (1 + 2.25 - 0.16) / 3.0;
    EXPECT_TRUE(std::abs(c - c_plus) < 1e-12 || std::abs(c - c_minus) < 1e-12) << c;
  }
  EXPECT_FALSE(ks::input_crank(k).crank);
}

TEST(Grashof, Types) {
  EXPECT_EQ(ks::grashof_type({1.0, 0.3, 1.0, 1.0}), "crank-rocker");
  EXPECT_EQ(ks::grashof_type({0.5, 2.0, 2.2, 2.5}), "double-crank");
  EXPECT_EQ(ks::grashof_type({1.0, 2.0, 0.3, 2.0}), "double-rocker");
  EXPECT_EQ(ks::grashof_type({1.0, 1.0, 1.0, 1.0}), "change-point");
  EXPECT_EQ(ks::grashof_type({1.0, 2.0, 1.5, 3.5}), "non-Grashof triple-rocker");
}

// Output dead points: where the discriminant of Freudenstein's equation solved for psi vanishes,
// i.e. the output angle is extreme; checked against a dense sweep of the input.
TEST(Grashof, OutputDeadPointsAreOutputExtremes) {
  const ks::fourbar_links l{1.0, 0.35, 1.1, 0.9};  // crank-rocker: output rocks
  const Eigen::Vector3d k = ks::k_from_links(l);
  ASSERT_TRUE(ks::input_crank(k).crank);
  const auto dead = ks::output_dead_points(k);
  ASSERT_FALSE(dead.empty());
  double lo = 1e9, hi = -1e9;
  for (int i = 0; i < 100000; ++i) {
    const auto o = ks::fourbar_output(k, 2 * std::numbers::pi * i / 100000);
    lo = std::min(lo, o.plus), hi = std::max(hi, o.plus);
  }
  // The swing of the '+' branch ends at two of the dead points (up to the sweep's resolution).
  int matched = 0;
  for (const double d : dead) {
    if (std::abs(d - lo) < 1e-4 || std::abs(d - hi) < 1e-4) ++matched;
  }
  EXPECT_EQ(matched, 2) << lo << " " << hi;
}
