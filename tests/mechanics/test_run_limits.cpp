// Step counts of a run (issue 31): a span shorter than dt is one short step (with zero steps
// `simulate --t-end 1e-12 --dt 1e-3` never met t_end and ran for ever), and a run beyond the
// documented limits is refused before it starts, naming the limit (1e308 s or dt = 1e-320
// hung). The grid's closed form: t_k = t_start + k dt, the last point exactly t_end.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

TEST(RunLimits, GridStepsAreAtLeastOneForAPositiveSpan) {
  EXPECT_EQ(grid_steps(0.0, 1e-3), 0.0);
  EXPECT_EQ(grid_steps(1e-12, 1e-3), 1.0);
  EXPECT_EQ(grid_steps(1e-320, 1e-3), 1.0);
  EXPECT_EQ(grid_steps(1.0, 0.1), 10.0);  // 1 / 0.1 = 10.000000000000002 in doubles
  EXPECT_EQ(grid_steps(1.05, 0.1), 11.0);
  EXPECT_TRUE(std::isinf(grid_steps(1e308, 1e-3)));
  EXPECT_TRUE(std::isinf(grid_steps(1.0, 1e-320)));
}

std::string refusal_of(const simulation_options& o) {
  try {
    o.validate();
  } catch (const io::option_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RunLimits, SimulationRefusesStepCountsBeyondTheLimits) {
  simulation_options o;
  o.t_end = 1e308;
  EXPECT_NE(refusal_of(o).find("dt gives more than 1e+09 steps"), std::string::npos)
      << refusal_of(o);
  o.t_end = 1.0;
  o.dt = 1e-320;
  EXPECT_NE(refusal_of(o).find("dt gives more than 1e+09 steps"), std::string::npos);
  // 10^8 steps recorded every step: too many rows; every 100th: allowed.
  o.dt = 1e-8;
  EXPECT_NE(refusal_of(o).find("more than 1e+07 rows"), std::string::npos) << refusal_of(o);
  o.record_every = 100;
  EXPECT_EQ(refusal_of(o), "(no error)");
  o = simulation_options{};
  o.t_end = 1e4;  // exactly 10^7 steps at dt = 1e-3
  EXPECT_EQ(refusal_of(o), "(no error)");
}

TEST(RunLimits, SpanShorterThanDtIsOneStepEndingAtTEnd) {
  const model m = load_model(examples + "/pendulum.toml");
  for (const integrator_kind integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    simulation_options o;
    o.integrator = integrator;
    o.t_end = 1e-12;
    o.dt = 1e-3;
    auto solver = make_solver("gigsp");
    const simulation_result r = simulate(m, *solver, o);
    ASSERT_TRUE(r.completed) << r.message;
    ASSERT_EQ(r.records.size(), 2u);
    EXPECT_EQ(r.records.front().t, 0.0);
    EXPECT_EQ(r.records.back().t, 1e-12);
    // One step of 1e-12 s from rest: the position moves by at most |a| t^2 / 2 ~ 5e-24.
    EXPECT_LT((r.records.back().q - r.records.front().q).cwiseAbs().maxCoeff(), 1e-20);
  }
  kinematic_analysis_options k;
  k.t_end = 1e-12;
  k.dt = 1e-3;
  const model fourbar = load_model(examples + "/haug_fourbar.toml");
  const kinematic_analysis_result kr = analyse_kinematics(fourbar, k);
  ASSERT_TRUE(kr.completed) << kr.message;
  ASSERT_EQ(kr.rows.size(), 2u);
  EXPECT_EQ(kr.rows.back().t, 1e-12);
}

}  // namespace
}  // namespace kinevo::mechanics
