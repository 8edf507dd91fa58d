// Rotation invariance as a property of a run (issue 25): the g3 model with pcx, undx or spx on a
// problem rotated by an orthogonal Q, started from the rotated initial population (and the
// rotated frame), visits the rotated points of the unrotated run, to rounding. It holds because
// the operators use only rotation-covariant arithmetic (parent differences, norms, projections,
// and normal draws expressed in a frame that turns with the population); the same random stream
// drives both runs. The bounds are far away and never bind.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "ga_test_support.hpp"
#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/ga/detail/island.hpp"

namespace kinevo::ga {
namespace {

// g(y) = f(Q^T y).
class rotated_problem : public problem {
 public:
  rotated_problem(const problem& f, Eigen::MatrixXd q) : f_(f), q_(std::move(q)) {}
  int dimension() const override { return f_.dimension(); }
  Eigen::VectorXd lower_bounds() const override { return f_.lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return f_.upper_bounds(); }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& y,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    const Eigen::MatrixXd x = q_.transpose() * y;
    f_.evaluate(x, values);
  }
  std::string name() const override { return "rotated " + f_.name(); }

 private:
  const problem& f_;
  Eigen::MatrixXd q_;
};

using testing::hexd;

// An island's saved population: value and point of every individual.
struct population_text {
  std::vector<std::string> header;  // rng, evaluations
  std::vector<double> f;
  std::vector<Eigen::VectorXd> x;
  double best_f = 0.0;
  Eigen::VectorXd best_x;
  Eigen::MatrixXd frame;
  std::vector<std::string> metric;  // learned metric's lines
};

population_text parse(const island& isl, int n) {
  std::ostringstream os;
  isl.save(os);
  std::istringstream in(os.str());
  population_text p;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string key;
    s >> key;
    const auto vec = [&](int m) {
      Eigen::VectorXd v(m);
      for (int j = 0; j < m; ++j) {
        std::string w;
        s >> w;
        v[j] = std::strtod(w.c_str(), nullptr);
      }
      return v;
    };
    if (key == "rng" || key == "evaluations") {
      p.header.push_back(line);
    } else if (key == "best") {
      const Eigen::VectorXd v = vec(n + 1);
      p.best_f = v[0];
      p.best_x = v.tail(n);
    } else if (key == "individual") {
      const Eigen::VectorXd v = vec(n + 1);
      p.f.push_back(v[0]);
      p.x.push_back(v.tail(n));
    } else if (key == "frame") {
      p.frame = vec(n * n).reshaped(n, n);
    } else if (key.rfind("metric", 0) == 0) {
      // A learned metric's state: C = I and nothing recorded at the start, which Q turns into
      // itself; carried over as it is.
      p.metric.push_back(line);
    }
  }
  return p;
}

std::string format(const population_text& p) {
  std::ostringstream os;
  for (const auto& h : p.header) os << h << '\n';
  os << "best " << hexd(p.best_f);
  for (const double v : p.best_x) os << ' ' << hexd(v);
  os << '\n';
  for (std::size_t i = 0; i < p.f.size(); ++i) {
    os << "individual " << hexd(p.f[i]);
    for (const double v : p.x[i]) os << ' ' << hexd(v);
    os << '\n';
  }
  if (p.frame.size() > 0) {
    os << "frame";
    for (const double v : p.frame.reshaped()) os << ' ' << hexd(v);
    os << '\n';
  }
  for (const auto& m : p.metric) os << m << '\n';
  return os.str();
}

void expect_rotated_run(ga_options o) {
  const int n = 4;
  ellipsoid_function f(n);
  const Eigen::MatrixXd q = fixed_rotation(n);
  rotated_problem g(f, q);
  const search_box box{Eigen::VectorXd::Constant(n, -1e3), Eigen::VectorXd::Constant(n, 1e3)};
  const search_box start{Eigen::VectorXd::Constant(n, 1.0), Eigen::VectorXd::Constant(n, 3.0)};
  island a;
  a.configure(o, n);
  a.start(f, box, 3, 0, 0, nullptr, &start);
  // The rotated island starts from the rotated state: points and frame turned by Q.
  population_text pa = parse(a, n);
  const double f0 = pa.best_f;
  population_text pb = pa;
  pb.best_x = q * pa.best_x;
  for (auto& x : pb.x) x = q * x;
  if (pb.frame.size() > 0) pb.frame = q * pa.frame;
  island b;
  b.configure(o, n);
  b.set_box(box);
  b.attach(g);
  std::istringstream in(format(pb));
  b.load(in);
  // 400 family steps (8 generations of 50): far enough to make progress, not so far that the
  // population has converged to where rounding at its own scale reorders near-equal values.
  for (int k = 0; k < 400 / o.family_steps(); ++k) {
    a.step(f);
    b.step(g);
  }
  pa = parse(a, n);
  pb = parse(b, n);
  ASSERT_EQ(pa.x.size(), pb.x.size());
  EXPECT_LT(pa.best_f, 1e-2 * f0) << "the run must make progress for the property to say much";
  // Rounding made at the initial scale (|x| ~ 3) is carried along unchanged as long as every
  // comparison comes out the same, so the points agree to rounding of that scale, and the
  // population's order is the same.
  const double scale = 3.0 * std::sqrt(static_cast<double>(n));
  std::size_t best_a = 0, best_b = 0;
  for (std::size_t i = 0; i < pa.x.size(); ++i) {
    const Eigen::VectorXd turned = q * pa.x[i];
    EXPECT_LE((pb.x[i] - turned).norm(), 1e-12 * scale) << "individual " << i;
    if (pa.f[i] < pa.f[best_a]) best_a = i;
    if (pb.f[i] < pb.f[best_b]) best_b = i;
  }
  EXPECT_EQ(best_a, best_b);
}

ga_options g3(crossover_method c, int parents) {
  ga_options o = g3_pcx_options();  // population 100: smaller ones stagnate (PCX's spread
  o.crossover = c;                  // shrinks with the population's)
  o.parents = parents;
  return o;
}

TEST(RotationInvariance, ParentCentricRunTurnsWithTheProblem) {
  expect_rotated_run(g3(crossover_method::pcx, 3));
}

// The learned metric turns with the problem too: its root C^{1/2} is the symmetric one.
TEST(RotationInvariance, LearnedMetricRunTurnsWithTheProblem) {
  expect_rotated_run(g3_pcx_metric_options());
}

TEST(RotationInvariance, UnimodalNormalRunTurnsWithTheProblem) {
  expect_rotated_run(g3(crossover_method::undx, 3));
}

TEST(RotationInvariance, SimplexRunTurnsWithTheProblem) {
  expect_rotated_run(g3(crossover_method::spx, 5));
}

}  // namespace
}  // namespace kinevo::ga
