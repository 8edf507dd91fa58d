// ga::constrained_objective: a constrained_problem as the ga::problem of each constraint
// handling (penalty term, or value and total violation with tolerances), its feasibility
// verdict and its updates between runs.
#include "kinevo/ga/constrained_objective.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "constrained_test_problems.hpp"
#include "ga_test_support.hpp"
#include "kinevo/ga/island_model.hpp"

namespace kinevo::ga {
namespace {

using testing::bracken_mccormick;

constraint_options with(constraint_handling method) {
  constraint_options o;
  o.method = method;
  return o;
}

using testing::value_at;

// (value, violation) of one point through evaluate_with_violation.
std::pair<double, double> pair_at(const problem& p, const Eigen::VectorXd& x) {
  Eigen::VectorXd v(1), r(1);
  p.evaluate_with_violation(x, v, r);
  return {v[0], r[0]};
}

double f_of(const Eigen::VectorXd& x) {
  return (x[0] - 2.0) * (x[0] - 2.0) + (x[1] - 1.0) * (x[1] - 1.0);
}
double h_of(const Eigen::VectorXd& x) {
  return x[0] - 2.0 * x[1] + 1.0;
}
double g_of(const Eigen::VectorXd& x) {
  return x[0] * x[0] / 4.0 + x[1] * x[1] - 1.0;
}

TEST(ConstrainedObjective, PenaltyIsFPlusWeightedSquaredViolations) {
  const bracken_mccormick bm;
  constraint_options o = with(constraint_handling::penalty);
  o.penalty.weight = 10.0;
  o.penalty.named_weights["g"] = 100.0;
  constrained_objective p(bm, o);
  EXPECT_FALSE(p.reports_violation());
  EXPECT_EQ(p.dimension(), 2);
  EXPECT_EQ(p.name(), "bracken_mccormick");
  // Both constraints violated (h = 0.5, g = 0.5625 at (1.5, 1)).
  const Eigen::Vector2d a(1.5, 1.0);
  EXPECT_DOUBLE_EQ(value_at(p, a), f_of(a) + 10.0 * h_of(a) * h_of(a) + 100.0 * g_of(a) * g_of(a));
  // An inactive inequality adds nothing; an equality counts with its sign squared.
  const Eigen::Vector2d b(0.0, 0.0);  // h = 1, g = -1
  EXPECT_DOUBLE_EQ(value_at(p, b), f_of(b) + 10.0 * 1.0);
  const Eigen::Vector2d c(0.0, 1.0);  // h = -1, g = 0
  EXPECT_DOUBLE_EQ(value_at(p, c), f_of(c) + 10.0 * 1.0);
  // Weight scales multiply the weights per constraint.
  p.set_weight_scales(Eigen::Vector2d(2.0, 3.0));
  EXPECT_DOUBLE_EQ(value_at(p, a), f_of(a) + 20.0 * h_of(a) * h_of(a) + 300.0 * g_of(a) * g_of(a));
}

TEST(ConstrainedObjective, FeasibilityAndEpsilonReportFAndTheTotalViolationWithTolerances) {
  const bracken_mccormick bm;
  for (const auto m : {constraint_handling::feasibility, constraint_handling::epsilon}) {
    constraint_options o = with(m);  // equality tolerance 1e-4, inequality 0 (CEC 2006)
    const constrained_objective p(bm, o);
    EXPECT_TRUE(p.reports_violation());
    const Eigen::Vector2d a(1.5, 1.0);  // h = 0.5, g = 0.5625
    auto [v, r] = pair_at(p, a);
    EXPECT_EQ(v, f_of(a));
    EXPECT_DOUBLE_EQ(r, (0.5 - 1e-4) + 0.5625);
    // An equality within its tolerance and an inactive inequality violate nothing.
    const Eigen::Vector2d b(0.0, 0.5 + 0.4e-4);  // h = -0.8e-4, g < 0
    std::tie(v, r) = pair_at(p, b);
    EXPECT_EQ(v, f_of(b));
    EXPECT_EQ(r, 0.0);
    // Just outside the equality tolerance.
    const Eigen::Vector2d c(0.0, 0.5 + 0.6e-4);
    EXPECT_NEAR(pair_at(p, c).second, 0.2e-4, 1e-12);

    // An inequality tolerance sigma: g up to sigma counts as satisfied, beyond it g - sigma.
    o.inequality_tolerance = 0.5;
    o.equality_tolerance = 2.0;
    const constrained_objective loose(bm, o);
    EXPECT_EQ(pair_at(loose, a).second, 0.5625 - 0.5);  // |h| = 0.5 <= 2
    const Eigen::Vector2d d(1.0, 1.0);                  // h = 0, g = 0.25
    EXPECT_EQ(pair_at(loose, d).second, 0.0);
    EXPECT_TRUE(loose.feasible(d));
    EXPECT_FALSE(constrained_objective(bm, with(m)).feasible(d));
  }
  // Penalty and multipliers fold the constraints into the value: no violation is reported.
  EXPECT_FALSE(constrained_objective(bm, with(constraint_handling::penalty)).reports_violation());
  EXPECT_FALSE(
      constrained_objective(bm, with(constraint_handling::multipliers)).reports_violation());
}

TEST(ConstrainedObjective, ViolationsAndFeasibilityAtTheOptimumAndOffIt) {
  const bracken_mccormick bm;
  const Eigen::VectorXd star = bracken_mccormick::optimum();
  EXPECT_NEAR(f_of(star), 1.3934651, 1e-6);  // the published optimum value
  for (const auto m : {constraint_handling::penalty, constraint_handling::multipliers,
                       constraint_handling::feasibility, constraint_handling::epsilon}) {
    const constrained_objective p(bm, with(m));
    // Both constraints are active at x*: h is within its tolerance, g is 0 up to rounding.
    const Eigen::VectorXd v = p.violations(star);
    ASSERT_EQ(v.size(), 2);
    EXPECT_EQ(v[0], 0.0);
    EXPECT_LE(v[1], 1e-15);
    EXPECT_LE(p.max_violation(star), 1e-15);
    // A hair inside the ellipse along h = 0 is feasible by the verdict, whatever the method.
    const Eigen::Vector2d inside(star[0] - 1e-9, (star[0] - 1e-9 + 1.0) / 2.0);
    EXPECT_TRUE(p.feasible(inside)) << to_string(m);
    EXPECT_EQ(p.max_violation(inside), 0.0);
    // Off it: the unconstrained minimum (2, 1) violates both (h = 1, g = 1).
    const Eigen::Vector2d free_min(2.0, 1.0);
    EXPECT_FALSE(p.feasible(free_min));
    EXPECT_DOUBLE_EQ(p.violations(free_min)[0], 1.0 - 1e-4);
    EXPECT_DOUBLE_EQ(p.violations(free_min)[1], 1.0);
    EXPECT_DOUBLE_EQ(p.max_violation(free_min), 1.0);
  }
}

TEST(ConstrainedObjective, MultipliersAfterRunChangeTheValuePenaltysDoNot) {
  const bracken_mccormick bm;
  const Eigen::Vector2d off(1.5, 1.0);    // both violated
  const Eigen::Vector2d probe(1.0, 0.5);  // h = 1, g = -0.5
  constrained_objective fixed(bm, with(constraint_handling::penalty));
  const double before = value_at(fixed, probe);
  fixed.after_run(off);
  EXPECT_EQ(value_at(fixed, probe), before);
  EXPECT_EQ(fixed.constraint_penalty().multipliers(), Eigen::Vector2d::Zero());

  constrained_objective lagrange(bm, with(constraint_handling::multipliers));
  EXPECT_EQ(lagrange.constraint_penalty().kind(), penalty_kind::multipliers);
  EXPECT_EQ(value_at(lagrange, probe), before);  // lambda = 0 at first: the same penalty
  lagrange.after_run(off);
  // lambda += 2 w r (Nocedal and Wright, eq. 17.39 with mu = 1 / (2 w)), w = 1.
  const Eigen::Vector2d lambda(2.0 * h_of(off), 2.0 * g_of(off));
  EXPECT_DOUBLE_EQ(lagrange.constraint_penalty().multipliers()[0], lambda[0]);
  EXPECT_DOUBLE_EQ(lagrange.constraint_penalty().multipliers()[1], lambda[1]);
  EXPECT_DOUBLE_EQ(value_at(lagrange, probe), before + lambda[0] * h_of(probe));
  EXPECT_NE(value_at(lagrange, probe), before);

  // Feasibility and epsilon have nothing to update.
  for (const auto m : {constraint_handling::feasibility, constraint_handling::epsilon}) {
    constrained_objective p(bm, with(m));
    const auto a = pair_at(p, probe);
    p.after_run(off);
    EXPECT_EQ(pair_at(p, probe), a);
  }
}

// g is NaN for x1 > 1 (e.g. a square root of a negative number in a real problem).
class nan_constraint : public bracken_mccormick {
 public:
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> c) const override {
    bracken_mccormick::evaluate(x, values, c);
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
      if (x(0, k) > 1.0) c(1, k) = std::numeric_limits<double>::quiet_NaN();
    }
  }
};

TEST(ConstrainedObjective, ANanConstraintIsNeverFeasibleAndTheIslandRefusesIt) {
  const nan_constraint bad;
  const Eigen::Vector2d x(1.5, 1.25);  // h = 0 exactly: only the NaN is left
  for (const auto m : {constraint_handling::feasibility, constraint_handling::epsilon}) {
    const constrained_objective p(bad, with(m));
    EXPECT_FALSE(std::isfinite(pair_at(p, x).second));
    EXPECT_FALSE(p.feasible(x));
    EXPECT_EQ(p.max_violation(x), std::numeric_limits<double>::infinity());

    ga_options ga;
    ga.constraints = m;
    island_options io;
    io.islands = 2;
    io.threads = 1;
    island_model model(ga, io);
    termination t;
    t.max_generations = 20;
    try {
      model.run(p, search_box::of(p), t);
      FAIL() << "a NaN constraint must stop the run";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("constraint violation of 'bracken_mccormick' returned nan at x = ("),
                std::string::npos)
          << what;
    }
  }
  // With a penalty the NaN reaches the value, which the island refuses as ever.
  const constrained_objective p(bad, with(constraint_handling::penalty));
  EXPECT_FALSE(std::isfinite(value_at(p, x)));
  island_model model(ga_options{}, island_options{});
  termination t;
  t.max_generations = 20;
  EXPECT_THROW(model.run(p, search_box::of(p), t), std::runtime_error);
}

}  // namespace
}  // namespace kinevo::ga
