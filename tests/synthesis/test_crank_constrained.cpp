#include "kinevo/synthesis/linkages/crank_constrained.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <numbers>
#include <stdexcept>

#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/grashof.hpp"
#include "kinevo/synthesis/linkages/input_tables.hpp"
#include "synthesis_test_support.hpp"

namespace ks = kinevo::synthesis;

namespace {
using kinevo::test::grashof_table1;
}  // namespace

// Grashof paper, example: the unconstrained optimum's input is not a crank (f2 < 0) ...
TEST(CrankConstrained, UnconstrainedIsNotACrank) {
  const auto t = grashof_table1();
  const auto fit = ks::freudenstein_least_squares(t.input, t.output);
  const auto c = ks::input_crank(fit.k);
  EXPECT_LT(c.f2, 0.0);
  EXPECT_FALSE(c.crank);
}

// ... the penalty method gives an input crank with ||e|| no worse than the printed 0.050684.
TEST(CrankConstrained, Table1InputCrank) {
  const auto t = grashof_table1();
  ks::crank_constrained_options o;
  const auto r = ks::crank_constrained_least_squares(t.input, t.output, o);
  const auto c = ks::input_crank(r.fit.k);
  EXPECT_GT(c.f1, 0.0);
  EXPECT_GT(c.f2, 0.0);
  EXPECT_TRUE(c.crank);
  EXPECT_TRUE(ks::input_turns_fully(r.fit.k, 36000));
  EXPECT_LE(r.fit.residual_norm, 0.050684);
  // It is a constrained optimum: never better than the unconstrained 0.042233.
  EXPECT_GE(r.fit.residual_norm, 0.042233);
  // Every stage stays strictly feasible.
  for (const auto& s : r.penalty.stages) EXPECT_TRUE(ks::input_crank(s.x).crank);
}

TEST(CrankConstrained, OutputAndBothCranks) {
  const auto t = grashof_table1();
  for (const auto req : {ks::crank_requirement::output, ks::crank_requirement::both}) {
    ks::crank_constrained_options o;
    o.crank = req;
    const auto r = ks::crank_constrained_least_squares(t.input, t.output, o);
    EXPECT_TRUE(ks::output_crank(r.fit.k).crank);
    EXPECT_TRUE(ks::output_turns_fully(r.fit.k));
    if (req == ks::crank_requirement::both) {
      EXPECT_TRUE(ks::input_crank(r.fit.k).crank);
      EXPECT_TRUE(ks::input_turns_fully(r.fit.k));
    }
    EXPECT_GE(r.fit.residual_norm, 0.042233);
  }
}

// Bounds on link ratio and transmission angle hold at the result and cost some accuracy.
TEST(CrankConstrained, RatioAndTransmissionBounds) {
  const auto t = grashof_table1();
  ks::crank_constrained_options o;
  o.max_link_ratio = 3.0;
  o.min_transmission = 30.0 * std::numbers::pi / 180.0;
  const auto r = ks::crank_constrained_least_squares(t.input, t.output, o);
  const auto l = ks::links_from_k(r.fit.k);
  const double lo = std::min({std::abs(l.a1), std::abs(l.a2), std::abs(l.a3), std::abs(l.a4)});
  const double hi = std::max({std::abs(l.a1), std::abs(l.a2), std::abs(l.a3), std::abs(l.a4)});
  EXPECT_LE(hi / lo, 3.0 + 1e-9);
  std::vector<double> sweep;
  for (int i = 0; i < 360; ++i) sweep.push_back(i * std::numbers::pi / 180.0);
  EXPECT_GE(ks::min_transmission_angle(l, sweep), o.min_transmission - 1e-6);
  EXPECT_TRUE(ks::input_crank(r.fit.k).crank);
}

// A ratio bound of 1e160 squared to inf and made every ratio constraint NaN (then SIGSEGV in the
// feasibility restoration): the options are refused where the constraints are built.
TEST(CrankConstrained, AbsurdBoundsAreRefused) {
  const auto t = grashof_table1();
  for (const double r : {1e160, 1e308, std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(), 0.5, 2e6}) {
    ks::crank_constrained_options o;
    o.max_link_ratio = r;
    EXPECT_THROW((void)ks::crank_constrained_least_squares(t.input, t.output, o),
                 std::invalid_argument)
        << r;
  }
  ks::crank_constrained_options o;
  o.min_transmission = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW((void)ks::crank_constrained_problem(t.input, t.output, o), std::invalid_argument);
  o.min_transmission = 0.0;
  o.max_link_ratio = ks::max_link_ratio_limit;
  EXPECT_NO_THROW((void)ks::crank_constrained_problem(t.input, t.output, o));
}
