// The multi-parent crossovers against their definitions: from many children of one parent set,
// the sample mean and covariance must be the closed forms of the papers' equations (PCX: Deb,
// Anand and Joshi 2002, eq. 4; UNDX-m: Kita, Ono and Kobayashi 1999; SPX: Tsutsui, Yamamura and
// Higuchi 1999, the uniform distribution on the expanded simplex). Fixed seeds; tolerances are
// several standard errors of the estimates.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/LU>
#include <Eigen/QR>
#include <cmath>

#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/ga/detail/parent_centric_crossover.hpp"
#include "kinevo/ga/detail/random_stream.hpp"
#include "kinevo/ga/detail/rotation_frame.hpp"
#include "kinevo/ga/detail/simplex_crossover.hpp"
#include "kinevo/ga/detail/unimodal_normal_crossover.hpp"

namespace kinevo::ga {
namespace {

constexpr int samples = 40000;

// Fixed parents (n x mu) in general position: normal draws of a fixed stream.
Eigen::MatrixXd parents(int n, int mu) {
  random_stream rng(99, 1, 2);
  Eigen::MatrixXd p(n, mu);
  for (int k = 0; k < mu; ++k) {
    for (int i = 0; i < n; ++i) p(i, k) = rng.normal() * (1.0 + 0.5 * k);
  }
  return p;
}

struct moments {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
};

template <typename Draw>
moments sample(int n, Draw&& draw) {
  Eigen::MatrixXd y(n, samples);
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd c(n);
    draw(c);
    y.col(s) = c;
  }
  moments m;
  m.mean = y.rowwise().mean();
  const Eigen::MatrixXd centred = y.colwise() - m.mean;
  m.covariance = centred * centred.transpose() / (samples - 1.0);
  return m;
}

// Relative Frobenius distance of two covariances.
double relative_difference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).norm() / b.norm();
}

// Covariance of PCX children (eq. 4): sigma_zeta^2 d d^T along d, plus sigma_eta^2 Dbar^2 P
// across it (P = I - d d^T / |d|^2, isotropic noise projected), Dbar the mean distance of the
// other parents from the line through the index parent along d.
TEST(MultiParentCrossovers, ParentCentricChildrenFollowEquation4) {
  const int n = 6, mu = 3;
  const Eigen::MatrixXd p = parents(n, mu);
  const Eigen::VectorXd g = p.rowwise().mean();
  const Eigen::VectorXd d = p.col(0) - g;
  const Eigen::VectorXd u = d.normalized();
  double dbar = 0.0;
  for (int k = 1; k < mu; ++k) {
    const Eigen::VectorXd r = p.col(k) - p.col(0);
    dbar += (r - u.dot(r) * u).norm() / (mu - 1);
  }
  const Eigen::MatrixXd proj = Eigen::MatrixXd::Identity(n, n) - u * u.transpose();
  const double zeta = 0.1, eta = 0.2;
  const Eigen::MatrixXd expected = zeta * zeta * d * d.transpose() + eta * eta * dbar * dbar * proj;
  // The coordinate axes and a rotation frame give the same distribution.
  for (const Eigen::MatrixXd& frame : {Eigen::MatrixXd(), fixed_rotation(n)}) {
    parent_centric_crossover pcx(zeta, eta);
    pcx.prepare(p);
    EXPECT_NEAR(pcx.mean_distance(), dbar, 1e-12);
    random_stream rng(5, 0, 0);
    const moments m = sample(n, [&](Eigen::VectorXd& c) { pcx.draw(rng, frame, c); });
    // Centred on the index parent, not on the centroid (parent-centric).
    const double se = std::sqrt(expected.diagonal().maxCoeff() / samples);
    EXPECT_LT((m.mean - p.col(0)).cwiseAbs().maxCoeff(), 5.0 * se);
    EXPECT_LT(relative_difference(m.covariance, expected), 0.03);
    // Along d: exactly sigma_zeta^2 |d|^2 (the perpendicular noise has no component there).
    EXPECT_NEAR(u.dot(m.covariance * u) / (zeta * zeta * d.squaredNorm()), 1.0, 0.03);
  }
}

// UNDX-m: children centred on the primary parents' centroid g, covariance
// sigma_xi^2 sum d_i d_i^T + sigma_eta^2 D^2 P, P the projector off the primary subspace.
TEST(MultiParentCrossovers, UnimodalNormalChildrenFollowKitaEtAl) {
  const int n = 7, mu = 4, m = mu - 1;
  const Eigen::MatrixXd p = parents(n, mu);
  const Eigen::VectorXd g = p.leftCols(m).rowwise().mean();
  const Eigen::MatrixXd d = p.leftCols(m).colwise() - g;
  // Projector off span{x_i - x_m}: by a QR of the spanning differences.
  const Eigen::MatrixXd spans = p.leftCols(m - 1).colwise() - p.col(m - 1);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(spans);
  const Eigen::MatrixXd basis = qr.householderQ() * Eigen::MatrixXd::Identity(n, m - 1);
  const Eigen::MatrixXd proj = Eigen::MatrixXd::Identity(n, n) - basis * basis.transpose();
  const double dist = (proj * (p.col(m) - g)).norm();
  const double xi = 1.0 / std::sqrt(static_cast<double>(m));  // Kita et al.'s defaults
  const double eta = 0.35 / std::sqrt(static_cast<double>(n - m));
  const Eigen::MatrixXd expected = xi * xi * d * d.transpose() + eta * eta * dist * dist * proj;
  unimodal_normal_crossover undx(0.0, 0.0);
  undx.prepare(p);
  EXPECT_NEAR(undx.sigma_xi(), xi, 1e-15);
  EXPECT_NEAR(undx.sigma_eta(), eta, 1e-15);
  EXPECT_NEAR(undx.distance(), dist, 1e-12);
  random_stream rng(6, 0, 0);
  const Eigen::MatrixXd frame = fixed_rotation(n);
  const moments s = sample(n, [&](Eigen::VectorXd& c) { undx.draw(rng, frame, c); });
  const double se = std::sqrt(expected.diagonal().maxCoeff() / samples);
  EXPECT_LT((s.mean - g).cwiseAbs().maxCoeff(), 5.0 * se);
  EXPECT_LT(relative_difference(s.covariance, expected), 0.03);
}

// SPX: uniform on the simplex p_k = o + eps (x_k - o). The uniform distribution on a simplex of
// mu vertices has mean o and covariance sum_k (p_k - o)(p_k - o)^T / (mu (mu + 1)) (Dirichlet(1)
// barycentric coordinates); every child has non-negative barycentric coordinates.
TEST(MultiParentCrossovers, SimplexChildrenAreUniformInTheExpandedSimplex) {
  const int n = 4, mu = n + 1;
  const Eigen::MatrixXd x = parents(n, mu);
  const Eigen::VectorXd o = x.rowwise().mean();
  const double eps = std::sqrt(mu + 1.0);
  const Eigen::MatrixXd w = eps * (x.colwise() - o);
  const Eigen::MatrixXd expected = w * w.transpose() / (mu * (mu + 1.0));
  simplex_crossover spx(0.0);
  spx.prepare(x);
  EXPECT_DOUBLE_EQ(spx.epsilon(), eps);
  random_stream rng(7, 0, 0);
  // Barycentric coordinates from [p_1 - p_0 ... p_n - p_0] lambda' = y - p_0.
  const Eigen::MatrixXd& v = spx.vertices();
  const Eigen::MatrixXd edges = v.rightCols(mu - 1).colwise() - v.col(0);
  const auto lu = edges.fullPivLu();
  int outside = 0;
  const moments s = sample(n, [&](Eigen::VectorXd& c) {
    spx.draw(rng, c);
    const Eigen::VectorXd l = lu.solve(c - v.col(0));
    if (l.minCoeff() < -1e-12 || l.sum() > 1.0 + 1e-12) ++outside;
  });
  EXPECT_EQ(outside, 0);
  const double se = std::sqrt(expected.diagonal().maxCoeff() / samples);
  EXPECT_LT((s.mean - o).cwiseAbs().maxCoeff(), 5.0 * se);
  EXPECT_LT(relative_difference(s.covariance, expected), 0.03);
}

// The frame turns with the points: frame(Q X) = Q frame(X) to rounding.
TEST(MultiParentCrossovers, RotationFrameTurnsWithThePoints) {
  const int n = 5;
  const Eigen::MatrixXd x = parents(n, 12);
  const Eigen::MatrixXd q = fixed_rotation(n);
  const Eigen::MatrixXd f = rotation_frame(x);
  EXPECT_LT((f.transpose() * f - Eigen::MatrixXd::Identity(n, n)).norm(), 1e-13);
  EXPECT_LT((rotation_frame(q * x) - q * f).norm(), 1e-12);
}

}  // namespace
}  // namespace kinevo::ga
