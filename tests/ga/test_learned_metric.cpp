// The learned metric (ga/detail/learned_metric.hpp): one rank-mu update against the formula
// written out here, the roots it keeps, a checkpoint round trip, and the parent-centric step it
// learns from.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "kinevo/ga/detail/hex_text.hpp"
#include "kinevo/ga/detail/learned_metric.hpp"
#include "kinevo/ga/detail/parent_centric_crossover.hpp"
#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {
namespace {

// A child's normalised step y as the island records it: |y|^2 and C^{1/2} y under the root
// it was drawn with.
void record_u(learned_metric& m, const Eigen::VectorXd& y, double f, double v) {
  m.record(y.squaredNorm(), m.root() * y, f, v);
}

// Four children in the plane, the best two by value weighted ln(2.5) - ln(i) (normalised);
// rate 0.5: C = 0.5 I + 0.5 * 2 / (sum w |y|^2) * sum w y y^T, then scaled to det 1.
TEST(LearnedMetric, OneUpdateIsTheTraceNormalisedRankMuFormula) {
  learned_metric m;
  m.configure(2, 4, 0.5, 1, metric_root::symmetric);
  EXPECT_DOUBLE_EQ(m.rate(), 0.5);
  const std::vector<Eigen::Vector2d> y{{3.0, 1.0}, {0.5, -2.0}, {1.0, 0.2}, {-4.0, 4.0}};
  const std::vector<double> f{2.0, 1.0, 5.0, 3.0};
  for (int k = 0; k < 4; ++k) record_u(m, y[k], f[k], 0.0);
  ASSERT_TRUE(m.full());
  const std::vector<int> best_first{1, 0, 3, 2};
  m.update(best_first);
  EXPECT_FALSE(m.full());

  double w1 = std::log(2.5), w2 = std::log(2.5) - std::log(2.0);
  const double sum = w1 + w2;
  w1 /= sum;
  w2 /= sum;
  const double moment = w1 * y[1].squaredNorm() + w2 * y[0].squaredNorm();
  Eigen::Matrix2d c =
      0.5 * Eigen::Matrix2d::Identity() +
      0.5 * 2.0 / moment * (w1 * y[1] * y[1].transpose() + w2 * y[0] * y[0].transpose());
  c /= std::sqrt(c.determinant());
  const Eigen::MatrixXd root = m.root();
  EXPECT_LE((root * root - c).norm(), 1e-14);
  EXPECT_LE((root - root.transpose()).norm(), 1e-15) << "the symmetric root";
  const Eigen::Vector2d v(0.3, -1.7);
  Eigen::Vector2d u, x;
  m.to_u(v, u);
  m.to_x(u, x);
  EXPECT_LE((x - v).norm(), 1e-14 * v.norm());
  EXPECT_LE((root * u - v).norm(), 1e-14 * v.norm());
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> e(c);
  EXPECT_NEAR(m.condition(), e.eigenvalues()[1] / e.eigenvalues()[0], 1e-12);
}

// The same update with the Cholesky root (the Gauss solver's): L L^T is the same C, L is lower
// triangular with a positive diagonal, and u = L^-1 x undoes x = L u.
TEST(LearnedMetric, TheCholeskyRootOfOneUpdateIsAFactorOfTheSameMetric) {
  learned_metric sym, chol;
  sym.configure(2, 4, 0.5, 1, metric_root::symmetric);
  chol.configure(2, 4, 0.5, 1, metric_root::cholesky);
  const std::vector<Eigen::Vector2d> y{{3.0, 1.0}, {0.5, -2.0}, {1.0, 0.2}, {-4.0, 4.0}};
  const std::vector<double> f{2.0, 1.0, 5.0, 3.0};
  for (learned_metric* m : {&sym, &chol}) {
    // The same steps in x for both: the update is written in x, whichever root drew them.
    for (int k = 0; k < 4; ++k) m->record(y[k].squaredNorm(), y[k], f[k], 0.0);
    m->update(std::vector<int>{1, 0, 3, 2});
  }
  const Eigen::MatrixXd c = sym.root() * sym.root();
  const Eigen::MatrixXd& l = chol.root();
  EXPECT_EQ(l(0, 1), 0.0) << "lower triangular";
  EXPECT_GT(l(0, 0), 0.0);
  EXPECT_GT(l(1, 1), 0.0);
  EXPECT_LE((l * l.transpose() - c).norm(), 1e-14 * c.norm());
  const Eigen::Vector2d v(0.3, -1.7);
  Eigen::Vector2d u, x;
  chol.to_u(v, u);
  EXPECT_LE((l * u - v).norm(), 1e-14 * v.norm());
  chol.to_x(u, x);
  EXPECT_LE((x - v).norm(), 1e-14 * v.norm());
  // The condition is the LLT's estimate: within a factor of a few of the eigenvalue ratio.
  EXPECT_GE(chol.condition(), sym.condition() / 4.0);
  EXPECT_LE(chol.condition(), sym.condition() * 4.0);
}

// Every selected step along one axis with rate 1 makes C singular: the LLT fails, and the
// Cholesky root takes C bounded through its eigenvalues to a condition of 1e14, as the
// symmetric root does - a finite root of det 1 that inverts, never a NaN.
TEST(LearnedMetric, ASingularMetricIsBoundedUnderBothRoots) {
  for (const metric_root kind : {metric_root::symmetric, metric_root::cholesky}) {
    learned_metric m;
    m.configure(2, 4, 1.0, 1, kind);
    const Eigen::Vector2d along(1.0, 0.0);
    for (int k = 0; k < 4; ++k) m.record(1.0, along * (k + 1.0), k, 0.0);
    m.update(std::vector<int>{0, 1, 2, 3});
    const Eigen::MatrixXd& r = m.root();
    ASSERT_TRUE(r.allFinite()) << to_string(kind);
    const Eigen::MatrixXd c = r * r.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(c);
    const double condition = e.eigenvalues()[1] / e.eigenvalues()[0];
    EXPECT_GT(condition, 1e13) << to_string(kind);
    EXPECT_LT(condition, 1.01e14) << to_string(kind);
    EXPECT_NEAR(c.determinant(), 1.0, 1e-6) << to_string(kind);
    Eigen::Vector2d u, back;
    m.to_u(Eigen::Vector2d(1.0, 1.0), u);
    m.to_x(u, back);
    EXPECT_LE((back - Eigen::Vector2d(1.0, 1.0)).norm(), 1e-6) << to_string(kind);
  }
}

TEST(LearnedMetric, DefaultRateIsTheRankMuRateOfTheBestHalf) {
  learned_metric m;
  const int n = 20;
  m.configure(n, 12, 0.0);  // mu = 6
  double s1 = 0.0, s2 = 0.0;
  for (int i = 1; i <= 6; ++i) {
    const double w = std::log(6.5) - std::log(i);
    s1 += w;
    s2 += w * w;
  }
  const double mu_eff = s1 * s1 / s2;
  EXPECT_NEAR(m.rate(), 2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((n + 2.0) * (n + 2.0) + mu_eff),
              1e-15);
}

// The lazy rule: with n = 2 and rate 0.01 CMA-ES's rule decomposes every 1 / (10 n c) = 5
// updates; lazy = 10 every 50. Between decompositions the root stays; restart() keeps C, reset()
// forgets it.
TEST(LearnedMetric, LazyDecompositionsAndARestartThatKeepsTheMetric) {
  const Eigen::Vector2d along(1.0, 0.0);
  const auto updates = [&](learned_metric& m, int k) {
    for (int u = 0; u < k; ++u) {
      for (int i = 0; i < 4; ++i) record_u(m, along * (i + 1.0), i, 0.0);
      const std::vector<int> best_first{0, 1, 2, 3};
      m.update(best_first);
    }
  };
  learned_metric eager, lazy;
  eager.configure(2, 4, 0.01);
  lazy.configure(2, 4, 0.01, 10);
  updates(eager, 4);
  EXPECT_TRUE(eager.root().isIdentity());
  updates(eager, 1);
  EXPECT_FALSE(eager.root().isIdentity());
  updates(lazy, 49);
  EXPECT_TRUE(lazy.root().isIdentity());
  updates(lazy, 1);
  EXPECT_FALSE(lazy.root().isIdentity());
  EXPECT_GT(lazy.root()(0, 0), 1.0);  // stretched along the selected steps

  const Eigen::MatrixXd learned = lazy.root();
  record_u(lazy, along, 0.0, 0.0);
  lazy.restart();
  EXPECT_FALSE(lazy.full());
  EXPECT_EQ(lazy.root(), learned);
  for (int i = 0; i < 4; ++i) record_u(lazy, along, i, 0.0);
  EXPECT_TRUE(lazy.full());  // the record restarted empty
  lazy.reset();
  EXPECT_TRUE(lazy.root().isIdentity());
}

TEST(LearnedMetric, StateRoundTripsBitForBit) {
  for (const metric_root kind : {metric_root::symmetric, metric_root::cholesky}) {
    learned_metric a;
    a.configure(3, 4, 0.3, 1, kind);
    random_stream rng;
    rng.reseed(5, 0, 0);
    Eigen::VectorXd y(3);
    for (int k = 0; k < 6; ++k) {  // one update and two pending children
      rng.normals(y);
      record_u(a, y, static_cast<double>(k % 3), 0.0);
      if (a.full()) a.update(std::vector<int>{2, 0, 1, 3});
    }
    std::ostringstream os;
    a.save(os);
    learned_metric b;
    b.configure(3, 4, 0.3, 1, kind);
    std::istringstream in(os.str());
    b.load(in);
    std::ostringstream again;
    b.save(again);
    EXPECT_EQ(os.str(), again.str());
    EXPECT_EQ(a.root(), b.root());
  }
}

// Several updates at n = 40 (where Eigen's products take their blocked paths) against the
// formula written out with full matrices: C updated in full, decomposed at every update,
// scaled to det 1, its symmetric root V Lambda^{1/2} V^T. The metric keeps only C's lower
// triangle and forms the roots as W W^T; both must be the same matrices to rounding.
TEST(LearnedMetric, UpdatesAtASizeThatBlocksAreTheFullMatrixFormula) {
  const int n = 40, interval = 8, mu = interval / 2;
  const double rate = 0.3;
  learned_metric m;
  m.configure(n, interval, rate, 1, metric_root::symmetric);
  learned_metric chol;  // the same steps in x, the Cholesky root
  chol.configure(n, interval, rate, 1, metric_root::cholesky);
  Eigen::VectorXd w(mu);
  for (int i = 0; i < mu; ++i) w[i] = std::log(mu + 0.5) - std::log(i + 1.0);
  w /= w.sum();
  Eigen::MatrixXd c = Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd root = c;
  random_stream rng;
  rng.reseed(11, 0, 0);
  std::vector<Eigen::VectorXd> y(interval, Eigen::VectorXd(n));
  std::vector<int> best_first(interval);
  for (int update = 0; update < 5; ++update) {
    for (int k = 0; k < interval; ++k) {
      rng.normals(y[k]);
      y[k][k] *= 10.0;  // a shape to learn
      record_u(m, y[k], 0.0, 0.0);
      const Eigen::VectorXd step = m.root() * y[k];
      chol.record(y[k].squaredNorm(), step, 0.0, 0.0);
      best_first[k] = (k * 3 + update) % interval;
    }
    m.update(best_first);
    chol.update(best_first);
    double moment = 0.0;
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < mu; ++i) {
      const Eigen::VectorXd& yi = y[best_first[i]];
      moment += w[i] * yi.squaredNorm();
      const Eigen::VectorXd step = root * yi;
      sum += w[i] * step * step.transpose();
    }
    c = (1.0 - rate) * c + rate * n / moment * sum;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> e(c);
    const Eigen::VectorXd values = e.eigenvalues() / std::exp(e.eigenvalues().array().log().mean());
    c = e.eigenvectors() * values.asDiagonal() * e.eigenvectors().transpose();
    root = e.eigenvectors() * values.cwiseSqrt().asDiagonal() * e.eigenvectors().transpose();
    ASSERT_GT(m.condition(), 10.0) << "the updates must have given C a shape";
    EXPECT_LE((m.root() - root).norm(), 1e-12 * root.norm()) << "update " << update;
    Eigen::VectorXd u(n), back(n);
    const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
    m.to_u(root * v, u);
    EXPECT_LE((u - v).norm(), 1e-12 * v.norm());
    EXPECT_EQ(m.root(), m.root().transpose());
    const Eigen::MatrixXd& l = chol.root();
    EXPECT_TRUE(l.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(0.0));
    EXPECT_LE((l * l.transpose() - c).norm(), 1e-12 * c.norm()) << "update " << update;
    chol.to_u(l * v, u);
    chol.to_x(u, back);
    EXPECT_LE((u - v).norm(), 1e-12 * v.norm());
    EXPECT_LE((back - l * v).norm(), 1e-12 * v.norm());
  }
}

// The normalised step is the child's step from the index parent divided by sigma_eta Dbar
// when the draw along d is within the cap.
TEST(LearnedMetric, ParentCentricNormalisedStepIsTheStepInUnitsOfTheSpread) {
  Eigen::MatrixXd parents(3, 3);
  parents << 0.0, 1.0, 0.5,  //
      0.0, 1.0, -1.0,        //
      1.0, 0.0, 0.0;
  parent_centric_crossover pcx(0.1, 0.2);
  pcx.prepare(parents);
  random_stream rng;
  rng.reseed(7, 0, 0);
  Eigen::VectorXd child(3), y(3);
  const double spread = 0.2 * pcx.mean_distance();
  ASSERT_LT(0.1 * pcx.direction().norm() / spread, 3.0);
  for (int k = 0; k < 5; ++k) {
    pcx.draw(rng, Eigen::MatrixXd(), child);
    pcx.normalised_step(y);
    EXPECT_LE((y * spread - (child - parents.col(0))).norm(), 1e-14);
    EXPECT_EQ(pcx.step_scale(), spread) << "the island maps y by dividing the step in x";
  }
  // What the island relies on to map each child once: in a metric, C^{1/2} (child - index)
  // divided by step_scale() is C^{1/2} y, the step the update learns from.
  Eigen::MatrixXd w(3, 3);
  w << 2.0, 0.3, -0.1,  //
      0.0, 0.5, 0.4,    //
      0.1, 0.0, 1.5;
  const Eigen::MatrixXd root = w * w.transpose();  // symmetric positive definite
  for (int k = 0; k < 5; ++k) {
    pcx.draw(rng, Eigen::MatrixXd(), child);
    pcx.normalised_step(y);
    const Eigen::VectorXd mapped = root * y;
    const Eigen::VectorXd from_step = root * (child - parents.col(0)) / pcx.step_scale();
    EXPECT_LE((from_step - mapped).norm(), 1e-13 * mapped.norm());
  }
  // Parents nearly on one line: the draw along d is capped in y, which is then no multiple of
  // the step (the island maps y itself).
  Eigen::MatrixXd line(3, 3);
  line << 0.0, 1.0, 2.0,  //
      0.0, 1.0, 2.0,      //
      0.0, 0.0, 1e-3;
  pcx.prepare(line);
  pcx.draw(rng, Eigen::MatrixXd(), child);
  EXPECT_EQ(pcx.step_scale(), 0.0);
}

// Checkpoints written before the recorded steps were kept in x hold them in u
// ("metric_steps"): they load to the steps C^{1/2} y the update used then, bit for bit.
TEST(LearnedMetric, ACheckpointWithTheStepsInULoadsToTheSameUpdate) {
  learned_metric a;
  a.configure(3, 4, 0.3, 1, metric_root::cholesky);
  random_stream rng;
  rng.reseed(9, 0, 0);
  std::vector<Eigen::VectorXd> pending;
  for (int k = 0; k < 6; ++k) {  // one update (a root other than I) and two pending children
    Eigen::VectorXd y(3);
    rng.normals(y);
    y[0] *= 1.0 + k;
    record_u(a, y, static_cast<double>(k % 3), 0.0);
    if (a.full()) {
      a.update(std::vector<int>{2, 0, 1, 3});
      pending.clear();
    } else {
      pending.push_back(y);
    }
  }
  ASSERT_EQ(pending.size(), 2U);
  ASSERT_FALSE(a.root().isIdentity());
  std::ostringstream os;
  a.save(os);
  // The old line: per record f, v and y in u.
  std::string text = os.str();
  const auto at = text.find("metric_root_steps");
  ASSERT_NE(at, std::string::npos);
  std::ostringstream old_line;
  old_line << "metric_steps";
  for (std::size_t k = 0; k < pending.size(); ++k) {
    old_line << ' ', put_hex(old_line, static_cast<double>(k % 3));
    old_line << ' ', put_hex(old_line, 0.0);
    for (int j = 0; j < 3; ++j) old_line << ' ', put_hex(old_line, pending[k][j]);
  }
  old_line << '\n';
  text = text.substr(0, at) + old_line.str();
  learned_metric b;
  b.configure(3, 4, 0.3, 1, metric_root::cholesky);
  std::istringstream in(text);
  b.load(in);
  for (learned_metric* m : {&a, &b}) {
    for (int k = 0; k < 2; ++k) record_u(*m, Eigen::VectorXd::Constant(3, 0.5 + k), 1.0 + k, 0.0);
    ASSERT_TRUE(m->full());
    m->update(std::vector<int>{3, 1, 0, 2});
  }
  EXPECT_EQ(a.root(), b.root());
  Eigen::VectorXd ua(3), ub(3);
  a.to_u(Eigen::VectorXd::Constant(3, 1.0), ua);
  b.to_u(Eigen::VectorXd::Constant(3, 1.0), ub);
  EXPECT_EQ(ua, ub);
}

}  // namespace
}  // namespace kinevo::ga
