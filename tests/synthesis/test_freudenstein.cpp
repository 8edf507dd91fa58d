#include "kinevo/synthesis/linkages/freudenstein.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "synthesis_test_support.hpp"

namespace ks = kinevo::synthesis;

namespace {
using kinevo::test::deg;
using kinevo::test::grashof_table1;
}  // namespace

// Grashof paper, Table 1, unconstrained least squares (values recomputed independently).
TEST(Freudenstein, Table1LeastSquares) {
  const auto t = grashof_table1();
  const auto fit = ks::freudenstein_least_squares(t.input, t.output);
  EXPECT_NEAR(fit.k(0), 0.745488, 1e-6);
  EXPECT_NEAR(fit.k(1), 0.072166, 1e-6);
  EXPECT_NEAR(fit.k(2), -0.318569, 1e-6);
  EXPECT_NEAR(fit.residual_norm, 0.042233, 1e-6);
}

// Equal weights do not change the solution; a dominant weight pulls the fit through that point.
TEST(Freudenstein, Weights) {
  const auto t = grashof_table1();
  const auto plain = ks::freudenstein_least_squares(t.input, t.output);
  const auto same = ks::freudenstein_least_squares(t.input, t.output, std::vector<double>(5, 3.0));
  EXPECT_LT((plain.k - same.k).norm(), 1e-12);
  const auto heavy = ks::freudenstein_least_squares(t.input, t.output, {1e8, 1, 1, 1, 1});
  EXPECT_LT(std::abs(heavy.residual(0)), 1e-6);
  EXPECT_GT(std::abs(plain.residual(0)), 1e-3);
}

// A known linkage's own table, through 3 precision points, gives back its links.
TEST(Freudenstein, ExactRecoversKnownLinkage) {
  const ks::fourbar_links known{2.0, 0.7, 2.2, 1.6};
  const Eigen::Vector3d k = ks::k_from_links(known);
  std::vector<double> psi = ks::chebyshev_spacing(30 * deg, 120 * deg, 3), phi;
  for (const double p : psi) {
    // Output by direct geometry: intersect the coupler circle about the input tip with the
    // output circle about O4 (independent of the Freudenstein form).
    const double ax = known.a2 * std::cos(p), ay = known.a2 * std::sin(p);
    const double dx = known.a1 - ax, dy = -ay, d = std::hypot(dx, dy);
    const double along = (known.a3 * known.a3 - known.a4 * known.a4 + d * d) / (2 * d);
    const double h = std::sqrt(known.a3 * known.a3 - along * along);
    const double bx = ax + along * dx / d - h * dy / d, by = ay + along * dy / d + h * dx / d;
    phi.push_back(std::atan2(by, bx - known.a1));
  }
  const auto fit = ks::freudenstein_exact(psi, phi);
  EXPECT_LT((fit.k - k).norm(), 1e-10);
  const auto l = ks::links_from_k(fit.k, 2.0);
  EXPECT_NEAR(l.a1, 2.0, 1e-12);
  EXPECT_NEAR(l.a2, 0.7, 1e-9);
  EXPECT_NEAR(l.a3, 2.2, 1e-9);
  EXPECT_NEAR(l.a4, 1.6, 1e-9);
  // And the analysis reproduces the table on one branch.
  const auto e = ks::fourbar_structural_error(fit.k, psi, phi);
  EXPECT_LT(e.max_abs, 1e-9);
}

TEST(Freudenstein, ExactRejectsSingularPoints) {
  // psi and phi repeated in two rows: A has two equal rows.
  // A failed fit naming the problem (a result, not an exception: docs/architecture.md).
  const auto f = ks::freudenstein_exact({0.1, 0.1, 0.5}, {0.2, 0.2, 0.9});
  EXPECT_FALSE(f.summary.usable());
  EXPECT_EQ(f.summary.status(), "singular");
  EXPECT_NE(f.summary.message.find("singular Freudenstein matrix"), std::string::npos)
      << f.summary.message;
}

TEST(Freudenstein, LeastSquaresOnAConstantOutputIsAFailedFit) {
  // A constant output angle: the columns 1 and cos(phi) are parallel, rank 2 of 3.
  const auto f = ks::freudenstein_least_squares({0.1, 0.3, 0.5, 0.7}, {0.2, 0.2, 0.2, 0.2});
  EXPECT_FALSE(f.summary.usable());
  EXPECT_EQ(f.summary.status(), "rank_deficient");
  EXPECT_NE(f.summary.message.find("rank deficient (rank 2 of 3)"), std::string::npos)
      << f.summary.message;
  EXPECT_TRUE(
      ks::freudenstein_least_squares({0.1, 0.3, 0.5, 0.7}, {0.2, 0.5, 0.7, 1.1}).summary.usable());
}

TEST(Freudenstein, ChebyshevSpacing) {
  const auto x = ks::chebyshev_spacing(0.0, 2.0, 3);
  ASSERT_EQ(x.size(), 3u);
  EXPECT_NEAR(x[0], 1.0 - std::sqrt(3.0) / 2.0, 1e-15);
  EXPECT_NEAR(x[1], 1.0, 1e-15);
  EXPECT_NEAR(x[2], 1.0 + std::sqrt(3.0) / 2.0, 1e-15);
}

TEST(Freudenstein, LinksRejectImaginaryCoupler) {
  EXPECT_THROW(ks::links_from_k({10.0, 1.0, 1.0}), kinevo::io::option_error);
  EXPECT_THROW(ks::links_from_k({1.0, 0.0, 1.0}), kinevo::io::option_error);
}
