#include "ga/range_runs.hpp"

#include <gtest/gtest.h>

#include "ga/test_functions.hpp"

namespace kinevo::ga {
namespace {

TEST(RangeRuns, ShrinkAroundTheBestAndImprove) {
  // The seed's procedure on a Gauss-like quadratic: [-50, 50] first, GAucsd settings.
  const auto q = quadratic_function::four_variable();
  island_model m(gaucsd_options(), island_options{});
  termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = 6400;
  range_run_options ro;
  ro.runs = 5;
  ro.shrink = 0.1;
  const auto r = run_range_runs(m, q, search_box::of(q), per_run, ro);
  ASSERT_EQ(r.runs.size(), 5u);
  for (int k = 1; k < 5; ++k) {
    const auto& prev = r.runs[k - 1];
    const auto& cur = r.runs[k];
    // Re-centred on the previous best, radius shrunk by the factor.
    for (int j = 0; j < 4; ++j) {
      EXPECT_EQ(cur.centre[j], prev.result.best_x[j]);
      EXPECT_DOUBLE_EQ(cur.radii[j], 0.1 * prev.radii[j]);
    }
    // The previous best is in the initial population: never worse.
    EXPECT_LE(cur.result.best_value, prev.result.best_value);
  }
  // Run 1 is limited by the 16-bit grid of [-50, 50] (step 1.5e-3); run 5 by 1.5e-7.
  const double first = (r.runs[0].result.best_x - q.centre()).norm();
  const double last = (r.runs[4].result.best_x - q.centre()).norm();
  EXPECT_LT(last, 1e-4);
  EXPECT_LT(last, first / 100.0);
  EXPECT_EQ(r.best_value, r.runs[4].result.best_value);
  EXPECT_EQ(r.evaluations, 5 * r.runs[0].result.evaluations);
}

TEST(RangeRuns, GivenRadiiAndHookChangingTheProblem) {
  // A problem whose centre the hook moves between runs (like a multiplier update).
  struct shifted : problem {
    double shift = 0.0;
    int dimension() const override { return 2; }
    Eigen::VectorXd lower_bounds() const override { return Eigen::Vector2d(-10, -10); }
    Eigen::VectorXd upper_bounds() const override { return Eigen::Vector2d(10, 10); }
    void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                  Eigen::Ref<Eigen::VectorXd> v) const override {
      v = (x.array() - shift).square().colwise().sum().transpose();
    }
  } p;
  island_model m(ga_options{}, island_options{});
  termination t;
  t.max_generations = 60;
  range_run_options ro;
  ro.runs = 3;
  ro.radii_per_run = {10.0, 2.0, 0.5};
  int calls = 0;
  const auto r = run_range_runs(m, p, search_box::of(p), t, ro, [&](range_run_step& s) {
    ++calls;
    p.shift += 1.0;
    s.centre = Eigen::Vector2d::Constant(p.shift);  // caller re-centres on its new optimum
    return true;
  });
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_EQ(r.runs[1].radii, Eigen::Vector2d::Constant(2.0));
  EXPECT_EQ(r.runs[2].radii, Eigen::Vector2d::Constant(0.5));
  EXPECT_EQ(r.runs[2].centre, Eigen::Vector2d::Constant(2.0));
  EXPECT_LT((r.runs[2].result.best_x - Eigen::Vector2d::Constant(2.0)).norm(), 1e-3);

  range_run_options bad;
  bad.runs = 3;
  bad.radii_per_run = {1.0};
  EXPECT_THROW(run_range_runs(m, p, search_box::of(p), t, bad), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::ga

namespace kinevo::ga {
namespace {

TEST(RangeRuns, RotatedTrustRegionFollowsTheRosenbrockValley) {
  // The valley of Rosenbrock's function is curved and not parallel to the axes: boxes aligned
  // with the recent moves of the best follow it; axis-parallel boxes crawl.
  rosenbrock_function p(5);
  ga_options o;
  o.population = 30;
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 600;
  range_run_options ro;
  ro.runs = 40;
  ro.shrink = 0.5;
  ro.move_factor = 4.0;
  ro.first_run_budget = 10.0;
  ro.clip_lower = p.lower_bounds();
  ro.clip_upper = p.upper_bounds();
  island_model m(o, island_options{});
  const auto plain = run_range_runs(m, p, search_box::of(p), t, ro);
  ro.rotate = true;
  const auto rotated = run_range_runs(m, p, search_box::of(p), t, ro);
  EXPECT_LT(rotated.best_value, 1e-8);
  EXPECT_LT((rotated.best_x - Eigen::VectorXd::Ones(5)).norm(), 1e-3);
  EXPECT_LT(rotated.best_value, plain.best_value);
  // Every run's axes are orthonormal; the best reported is the point evaluated.
  for (const auto& r : rotated.runs) {
    EXPECT_LT((r.axes.transpose() * r.axes - Eigen::MatrixXd::Identity(5, 5)).norm(), 1e-12);
  }
  Eigen::VectorXd v(1);
  p.evaluate(rotated.best_x, v);
  EXPECT_EQ(v[0], rotated.best_value);

  range_run_options bad = ro;
  bad.move_factor = 0.0;
  EXPECT_THROW(run_range_runs(m, p, search_box::of(p), t, bad), std::invalid_argument);
}

}  // namespace
}  // namespace kinevo::ga
