// Divergence and interruption of a simulation (docs/mechanics.md, "Divergence" and
// "Interruption"): a diverging motion stops with simulation_stop::diverged and keeps its records
// up to the diverging state; the examples and the study's model are never flagged; the interrupt
// flag ends the run at the next record.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Issue 16, item 4: x'' = -1e8 x with dt = 1e-3 is far outside RK4's stability region
// (h omega = 10): the motion grew to 1e48 and the run "completed".
const char* stiff_spring = R"toml(
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 1.0
force = "-1e8*x"
)toml";

TEST(SimulationDivergence, StiffSpringWithTooLargeAStepStopsAsDiverged) {
  const model m = load_model_from_string(stiff_spring, "stiff.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.02;
  const simulation_result r = simulate(m, *solver, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.stop, simulation_stop::diverged);
  EXPECT_TRUE(r.diverged());
  EXPECT_EQ(r.status(), "diverged");
  EXPECT_NE(r.message.find("diverged"), std::string::npos) << r.message;
  // Stopped within a few steps, long before 1e48; the records up to the diverging state kept.
  ASSERT_GE(r.records.size(), 2u);
  EXPECT_LT(r.records.size(), 10u);
  EXPECT_TRUE(r.records.back().final);
  EXPECT_DOUBLE_EQ(r.records.back().t, r.last_t);
  for (const auto& rec : r.records) EXPECT_TRUE(rec.q.allFinite());
  EXPECT_GT(std::abs(r.records.back().q[0]) + std::abs(r.records.back().qd[0]), 1e6);
  EXPECT_DOUBLE_EQ(r.position_scale, 1.0 + 0.02);
  EXPECT_DOUBLE_EQ(r.velocity_scale, 2.0);

  // The same with Dormand-Prince is stable (error control): no divergence.
  o.integrator = integrator_kind::dormand_prince;
  o.rtol = 1e-6;
  o.atol = 1e-9;
  const simulation_result d = simulate(m, *solver, o);
  EXPECT_TRUE(d.completed) << d.message;

  // Switched off, the same run goes on (to non-finite values or the end).
  o.integrator = integrator_kind::rk4;
  o.check_divergence = false;
  const simulation_result off = simulate(m, *solver, o);
  EXPECT_NE(off.stop, simulation_stop::diverged);
}

TEST(SimulationDivergence, ConstraintViolationBeyondTheBoundStops) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 1.0;
  o.dt = 0.05;  // coarse, no stabilization: |Phi| drifts
  const simulation_result free_run = simulate(m, *solver, o);
  ASSERT_TRUE(free_run.completed) << free_run.message;
  ASSERT_GT(free_run.max_position_violation, 0.0);
  // A bound below the drift flags it, naming Phi.
  o.divergence_violation = free_run.max_position_violation / 10.0;
  const simulation_result r = simulate(m, *solver, o);
  EXPECT_EQ(r.stop, simulation_stop::diverged) << r.message;
  EXPECT_NE(r.message.find("|Phi|"), std::string::npos) << r.message;
}

TEST(SimulationDivergence, EnergyBlowUpStops) {
  // A spring with a potential, integrated with a step far too large: the energy explodes.
  const model m = load_model_from_string(R"toml(
[parameters]
k = 1e8

[[coordinate]]
name = "x"
initial = 1e-3
mass = 1.0
force = "-k*x"

[energy]
potential = "k*x^2/2"
)toml",
                                         "spring.toml");
  ASSERT_TRUE(m.has_energy());
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.02;
  o.divergence_growth = 1e300;  // leave it to the energy check
  const simulation_result r = simulate(m, *solver, o);
  EXPECT_EQ(r.stop, simulation_stop::diverged) << r.message;
  EXPECT_NE(r.message.find("energy"), std::string::npos) << r.message;
}

// No false alarm with default settings on the examples and the study's model.
TEST(SimulationDivergence, ExamplesAreNotFlagged) {
  struct example {
    std::string file;
    bool kinematic;
    double t_end;
  };
  for (const auto& e : std::vector<example>{{"pendulum.toml", false, 5.0},
                                            {"double_pendulum.toml", false, 5.0},
                                            {"slider_crank.toml", false, 2.0},
                                            {"seven_link_loop.toml", false, 0.5},
                                            {"haug_fourbar.toml", false, 2.0},
                                            {"fourbar_kinematics.toml", true, 1.0},
                                            {"fivebar_redundant.toml", true, 1.0}}) {
    model_options mo;
    mo.kinematic = e.kinematic;
    const model m = load_model(examples + "/" + e.file, mo);
    auto solver = make_solver("gigsp");
    for (const auto integ : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
      simulation_options o;
      o.t_end = e.t_end;
      o.integrator = integ;
      const simulation_result r = simulate(m, *solver, o, [](const step_record&) { return true; });
      EXPECT_NE(r.stop, simulation_stop::diverged) << e.file << ": " << r.message;
    }
  }
}

TEST(SimulationInterrupt, TheFlagEndsTheRunAtTheNextRecordWhichIsKept) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  std::atomic<bool> flag{false};
  simulation_options o;
  o.t_end = 1.0;
  o.dt = 0.01;
  core::run_context context;
  context.interrupt = &flag;
  std::vector<step_record> seen;
  const simulation_result r = simulate(
      m, *solver, o,
      [&](const step_record& rec) {
        seen.push_back(rec);
        if (seen.size() == 5) flag.store(true);
        return true;
      },
      nullptr, context);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.stop, simulation_stop::interrupted);
  EXPECT_TRUE(r.interrupted());
  EXPECT_EQ(r.status(), "interrupted");
  ASSERT_EQ(seen.size(), 6u);
  EXPECT_TRUE(seen.back().final);
  EXPECT_DOUBLE_EQ(seen.back().t, 0.05);
  EXPECT_EQ(r.steps, 5);

  // Without a callback the records are kept, the interrupted one last.
  flag.store(true);
  const simulation_result k = simulate(m, *solver, o, {}, nullptr, context);
  EXPECT_EQ(k.stop, simulation_stop::interrupted);
  ASSERT_EQ(k.records.size(), 1u);  // t = 0 only
  EXPECT_TRUE(k.records.back().final);
}

}  // namespace
}  // namespace kinevo::mechanics
