// The real-coded operators draw differently from NSGA-II's inverse-CDF formulas (Exp(1) by a
// ziggurat, exp instead of pow, rejection instead of a log): their distributions are checked
// here against the closed-form CDFs of the NSGA-II definitions, by Kolmogorov-Smirnov tests at
// a level of 1e-3 (fixed seeds, so the outcome is fixed too).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "kinevo/ga/detail/random_stream.hpp"
#include "kinevo/ga/detail/real_operators.hpp"

namespace kinevo::ga {
namespace {

// Largest |F_empirical - F| over the sorted samples.
double ks_distance(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, std::abs(f - static_cast<double>(i) / n),
                  std::abs(static_cast<double>(i + 1) / n - f)});
  }
  return d;
}

// Critical value of the one-sample KS statistic at level 1e-3.
double ks_limit(std::size_t n) {
  return 1.95 / std::sqrt(static_cast<double>(n));
}

TEST(RealOperators, PowersMatchStdPow) {
  for (double eta : {0.0, 1.0, 2.5, 20.0, 100.0, 2000.0}) {
    const eta_power p(eta);
    for (double x : {1e-6, 0.013, 0.5, 0.9, 0.999, 1.0, 1.7, 6.0}) {
      const double e = eta + 1.0;
      const double pw = std::pow(x, e);
      if (std::isinf(pw)) {
        EXPECT_TRUE(std::isinf(p.power(x))) << eta << ' ' << x;
      } else {
        EXPECT_NEAR(p.power(x), pw, 2e-13 * pw) << eta << ' ' << x;
      }
      // exp(log(x) / e): the rounding of log x (up to |log x| ulp of 1) carries over.
      const double rt = std::pow(x, 1.0 / e);
      EXPECT_NEAR(p.root(x), rt, 4e-16 * (1.0 + std::abs(std::log(x)) / e) * rt) << eta << ' ' << x;
    }
  }
}

TEST(RealOperators, InlineExpIsWithinTwoUlps) {
  for (double x = -60.0; x <= 60.0; x += 0.0137) {
    const double e = std::exp(x);
    EXPECT_LE(std::abs(detail::exp_inline(x) - e), 2.0 * (std::nextafter(e, 1e308) - e)) << x;
  }
  EXPECT_EQ(detail::exp_inline(0.0), 1.0);
}

TEST(RealOperators, ZigguratExponentialIsExpOne) {
  random_stream rng(7, 0, 0);
  std::vector<double> e(200000);
  double sum = 0.0;
  for (auto& v : e) sum += (v = rng.exponential());
  EXPECT_NEAR(sum / e.size(), 1.0, 0.01);
  EXPECT_LT(ks_distance(e, [](double t) { return -std::expm1(-t); }), ks_limit(e.size()));
  // The tail beyond the base layer (r = 7.697) is drawn too: P = e^-r ~ 4.5e-4.
  EXPECT_GT(*std::max_element(e.begin(), e.end()), detail::exponential_ziggurat::r);
}

// The multi-parent crossovers' normals: the ziggurat's layers close (the top one has the area
// of the others), and its draws are N(0, 1): KS against the normal CDF, moments, both signs
// and the tail beyond the base layer (r = 3.654, P = 1.3e-4 on each side).
TEST(RealOperators, ZigguratNormalIsStandardNormal) {
  const auto& z = detail::normal_layers;
  const auto area = [&](int i) { return z.x[i] * (z.f[i + 1] - z.f[i]); };
  for (int i = 1; i < 256; ++i) EXPECT_NEAR(area(i), area(1), 1e-12 * area(1)) << i;
  random_stream rng(9, 0, 0);
  std::vector<double> g(400000);
  double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
  for (auto& v : g) {
    v = rng.ziggurat_normal();
    sum += v;
    sum2 += v * v;
    sum4 += v * v * v * v;
  }
  const double n = static_cast<double>(g.size());
  EXPECT_NEAR(sum / n, 0.0, 0.008);   // sd of the mean 1.6e-3
  EXPECT_NEAR(sum2 / n, 1.0, 0.012);  // sd 2.2e-3
  EXPECT_NEAR(sum4 / n, 3.0, 0.08);   // sd 1.6e-2
  EXPECT_LT(ks_distance(g, [](double t) { return 0.5 * std::erfc(-t / std::sqrt(2.0)); }),
            ks_limit(g.size()));
  EXPECT_GT(*std::max_element(g.begin(), g.end()), detail::normal_ziggurat::r);
  EXPECT_LT(*std::min_element(g.begin(), g.end()), -detail::normal_ziggurat::r);
  // normals() fills a vector with the same draws.
  random_stream a(3, 1, 2), b(3, 1, 2);
  std::vector<double> v(5);
  a.normals(v);
  for (double x : v) EXPECT_EQ(x, b.ziggurat_normal());
}

TEST(RealOperators, GeometricSkipsFromExponentialsHaveTheGeometricMean) {
  random_stream rng(8, 0, 0);
  const double p = 0.25;
  const double inv = -1.0 / std::log1p(-p);
  const int n = 200000;
  double sum = 0.0;
  std::vector<int> counts(4, 0);
  for (int k = 0; k < n; ++k) {
    const auto g = rng.geometric_skip_exp(inv);
    sum += static_cast<double>(g);
    if (g < 4) ++counts[g];
  }
  EXPECT_NEAR(sum / n, (1.0 - p) / p, 0.02);  // sd of the mean ~0.008
  for (int g = 0; g < 4; ++g) {
    const double expected = n * p * std::pow(1.0 - p, g);
    EXPECT_NEAR(counts[g], expected, 4.0 * std::sqrt(expected)) << g;
  }
}

// NSGA-II's beta_q = (u alpha)^(1/(eta+1)) for u <= 1/alpha, else (2 - u alpha)^(-1/(eta+1)),
// u uniform: increasing in u, so P(beta_q <= t) = u(t).
double sbx_cdf(double t, double eta, double beta) {
  const double m = eta + 1.0;
  const double alpha = 2.0 - std::pow(beta, -m);
  return t <= 1.0 ? std::pow(t, m) / alpha : std::min(1.0, (2.0 - std::pow(t, -m)) / alpha);
}

TEST(RealOperators, SbxSpreadFollowsTheBoundedSbxDistribution) {
  const double eta = 20.0;
  const sbx_sampler sbx(eta);
  struct geometry {
    double y1, y2;
  };
  // [0, 10]: far from both bounds (one shared beta_q), near the lower bound, near both.
  for (const geometry g : {geometry{4.9, 5.1}, geometry{0.05, 0.6}, geometry{0.2, 9.5}}) {
    random_stream rng(9, 0, 0);
    const int n = 100000;
    std::vector<double> lower(n), upper(n);
    bool shared = true;
    for (int k = 0; k < n; ++k) {
      const sbx_spread s = sbx.draw(rng, g.y1, g.y2, 0.0, 10.0);
      lower[k] = s.lower;
      upper[k] = s.upper;
      shared = shared && s.lower == s.upper;
    }
    const double d = g.y2 - g.y1;
    const double beta_lower = 1.0 + 2.0 * g.y1 / d;
    const double beta_upper = 1.0 + 2.0 * (10.0 - g.y2) / d;
    EXPECT_LT(ks_distance(lower, [&](double t) { return sbx_cdf(t, eta, beta_lower); }),
              ks_limit(n))
        << g.y1 << ' ' << g.y2;
    EXPECT_LT(ks_distance(upper, [&](double t) { return sbx_cdf(t, eta, beta_upper); }),
              ks_limit(n))
        << g.y1 << ' ' << g.y2;
    if (g.y1 == 4.9) {
      EXPECT_TRUE(shared);  // far: NSGA-II gives both sides the same beta_q
    }
  }
}

// NSGA-II's polynomial mutation of y in [yl, yu] with one uniform u: down by
// (1 - v^(1/m)) (yu - yl), v = 2u + (1 - 2u)(1 - d1)^m for u < 1/2; up likewise with d2.
// Down: P(y' <= y - s w) = ((1 - s)^m - c1) / (1 - c1) / 2 for s in [0, d1].
double polynomial_cdf(double z, double y, double yl, double yu, double eta) {
  const double m = eta + 1.0;
  const double w = yu - yl;
  const double c1 = std::pow(1.0 - (y - yl) / w, m);
  const double c2 = std::pow(1.0 - (yu - y) / w, m);
  if (z < y) return 0.5 * (std::pow(1.0 - (y - z) / w, m) - c1) / (1.0 - c1);
  return 0.5 + 0.5 * (1.0 - (std::pow(1.0 - (z - y) / w, m) - c2) / (1.0 - c2));
}

TEST(RealOperators, PolynomialMutationFollowsTheBoundedDistribution) {
  // Mid-box (rejection on both sides) and 0.2 % above the lower bound (the formula below, the
  // rejection above), for the default eta and the Gauss solver's eta.
  for (double eta : {20.0, 100.0}) {
    const polynomial_sampler poly(eta);
    for (double y : {0.3, -0.996}) {
      random_stream rng(10, 0, 0);
      const int n = 100000;
      std::vector<double> z(n);
      for (auto& v : z) {
        v = poly.mutate(rng, y, -1.0, 1.0);
        ASSERT_GE(v, -1.0);
        ASSERT_LE(v, 1.0);
      }
      EXPECT_LT(ks_distance(z, [&](double t) { return polynomial_cdf(t, y, -1.0, 1.0, eta); }),
                ks_limit(n))
          << eta << ' ' << y;
    }
  }
}

TEST(RealOperators, PolynomialMutationAtABoundStaysInTheBox) {
  const polynomial_sampler poly(20.0);
  random_stream rng(11, 0, 0);
  int moved_in = 0;
  for (int k = 0; k < 1000; ++k) {
    const double v = poly.mutate(rng, -1.0, -1.0, 1.0);  // down: no room, stays; up: moves
    ASSERT_GE(v, -1.0);
    ASSERT_LE(v, 1.0);
    moved_in += v > -1.0;
  }
  EXPECT_NEAR(moved_in, 500, 80);
}

}  // namespace
}  // namespace kinevo::ga
