// The step-by-step simulator (mechanics/dynamics/simulator.hpp): advancing it record by record
// gives simulate()'s records bit for bit for RK4 (also with intermittent constraints),
// Dormand-Prince and the qtz-reduced DAE; set_state then stepping equals simulate_from; a
// diverging run reports failure; bad states are refused naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/simulator.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Bit for bit: == on every number (NaN energies compare by their NaN-ness).
void expect_same_record(const step_record& a, const step_record& b) {
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.qd, b.qd);
  EXPECT_EQ(a.qdd, b.qdd);
  EXPECT_EQ(a.constraint_force, b.constraint_force);
  EXPECT_EQ(a.position_violation, b.position_violation);
  EXPECT_EQ(a.velocity_violation, b.velocity_violation);
  EXPECT_TRUE(a.energy == b.energy || (std::isnan(a.energy) && std::isnan(b.energy)));
  EXPECT_EQ(a.worst_status, b.worst_status);
  EXPECT_EQ(a.active, b.active);
  EXPECT_EQ(a.slip, b.slip);
  EXPECT_EQ(a.final, b.final);
}

// The simulator advanced record by record against simulate() with the same options.
void expect_stepping_equals_simulate(const model& m, const simulation_options& o) {
  auto solver = make_solver("gigsp");
  const simulation_result whole = simulate(m, *solver, o);
  ASSERT_TRUE(whole.completed) << whole.message;
  auto stepping_solver = make_solver("gigsp");
  simulator sim(m, *stepping_solver, o);
  std::vector<step_record> records{sim.last()};
  for (bool more = true; more;) {
    const long long made = sim.record_count();
    more = sim.advance();
    if (sim.record_count() > made) records.push_back(sim.last());
  }
  ASSERT_EQ(records.size(), whole.records.size());
  for (std::size_t i = 0; i < records.size(); ++i) expect_same_record(records[i], whole.records[i]);
  const simulation_result r = sim.result();
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.steps, whole.steps);
  EXPECT_EQ(r.rejected_steps, whole.rejected_steps);
  EXPECT_EQ(r.solves, whole.solves);
  EXPECT_EQ(r.records.size(), whole.records.size());
  EXPECT_EQ(r.formulation.repartitions, whole.formulation.repartitions);
  EXPECT_EQ(r.events.size(), whole.events.size());
  EXPECT_FALSE(sim.running());
  EXPECT_FALSE(sim.step());
}

TEST(Simulator, Rk4RecordByRecordEqualsSimulate) {
  simulation_options o;
  o.t_end = 0.3;
  o.dt = 1e-3;
  expect_stepping_equals_simulate(load_model(examples + "/double_pendulum.toml"), o);
}

TEST(Simulator, Rk4WithIntermittentConstraintsEqualsSimulate) {
  simulation_options o;
  o.t_end = 0.2;
  o.dt = 1e-3;
  const model m = load_model(examples + "/disc_slip_roll.toml");
  expect_stepping_equals_simulate(m, o);
  // step() goes from grid time to grid time, past the switch recorded between them.
  auto solver = make_solver("gigsp");
  simulator sim(m, *solver, o);
  long long n = 0;
  while (sim.step()) {
    ++n;
    EXPECT_NEAR(sim.t(), static_cast<double>(n) * o.dt, 1e-12);
  }
  EXPECT_TRUE(sim.result().completed) << sim.result().message;
  EXPECT_EQ(sim.t(), o.t_end);
  EXPECT_FALSE(sim.result().events.empty());
}

TEST(Simulator, DormandPrinceRecordByRecordEqualsSimulate) {
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 0.5;
  o.dt = 0.01;
  o.rtol = 1e-8;
  o.atol = 1e-10;
  expect_stepping_equals_simulate(load_model(examples + "/double_pendulum.toml"), o);
  o.dt = 1e-4;  // several records per accepted step
  o.t_end = 0.05;
  expect_stepping_equals_simulate(load_model(examples + "/slider_crank.toml"), o);
}

TEST(Simulator, QtzReducedDaeRecordByRecordEqualsSimulate) {
  simulation_options o;
  o.formulation.kind = formulation_kind::qtz_reduced;
  o.t_end = 0.2;
  o.dt = 0.01;
  expect_stepping_equals_simulate(load_model(examples + "/slider_crank.toml"), o);
}

TEST(Simulator, OwningItsModelAndASolverByNameEqualsSimulate) {
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  simulator sim(load_model(examples + "/double_pendulum.toml"), "gigsp", solver_options{}, o);
  ASSERT_TRUE(sim.step(3));
  const Eigen::VectorXd q = sim.q(), qd = sim.qd();
  const double t = sim.t();
  sim.set_state(q, qd, t);  // the new run keeps the owned model and solver
  while (sim.step()) {
  }
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options from = o;
  from.t_start = t;
  const simulation_result whole = simulate_from(m, q, qd, *solver, from);
  ASSERT_TRUE(sim.result().completed) << sim.result().message;
  EXPECT_EQ(sim.q(), whole.records.back().q);
  EXPECT_EQ(sim.result().solver, "gigsp");
  EXPECT_THROW(simulator(m, "no-such-solver", solver_options{}, o), io::input_error);
}

TEST(Simulator, StepsOnTheGridAndReadsTheState) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  simulator sim(m, *solver, o);
  EXPECT_EQ(sim.t(), 0.0);
  EXPECT_EQ(sim.q(), m.initial_positions());
  EXPECT_TRUE(sim.step(3));
  EXPECT_NEAR(sim.t(), 0.03, 1e-15);
  EXPECT_EQ(sim.last().qdd.size(), m.coordinates());
  EXPECT_TRUE(sim.running());
  EXPECT_FALSE(sim.step(100));  // over at t_end
  EXPECT_TRUE(sim.result().completed);
  EXPECT_EQ(sim.t(), 0.1);
}

TEST(Simulator, SetStateThenSteppingEqualsSimulateFrom) {
  const model m = load_model(examples + "/double_pendulum.toml");
  for (const integrator_kind kind : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    simulation_options o;
    o.integrator = kind;
    o.t_end = 0.2;
    o.dt = 0.01;
    auto solver = make_solver("gigsp");
    simulator sim(m, *solver, o);
    ASSERT_TRUE(sim.step(5));
    const Eigen::VectorXd q = sim.q(), qd = sim.qd() * 1.5;
    const double t = sim.t();
    sim.set_state(q, qd, t);
    EXPECT_EQ(sim.t(), t);
    EXPECT_EQ(sim.qd(), qd);
    while (sim.step()) {
    }
    const simulation_result stepped = sim.result();
    simulation_options from = o;
    from.t_start = t;
    auto fresh = make_solver("gigsp");
    const simulation_result whole = simulate_from(m, q, qd, *fresh, from);
    ASSERT_TRUE(whole.completed) << whole.message;
    ASSERT_EQ(stepped.records.size(), whole.records.size());
    for (std::size_t i = 0; i < whole.records.size(); ++i) {
      expect_same_record(stepped.records[i], whole.records[i]);
    }
  }
}

TEST(Simulator, SetStateRefusesWrongSizesNonFiniteValuesAndLateTimes) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.1;
  simulator sim(m, *solver, o);
  const Eigen::VectorXd q = sim.q(), qd = sim.qd();
  const auto field_of = [&](const Eigen::VectorXd& a, const Eigen::VectorXd& b, double t) {
    try {
      sim.set_state(a, b, t);
    } catch (const io::option_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(field_of(Eigen::VectorXd::Zero(q.size() + 1), qd, 0.0).find("q"), std::string::npos);
  Eigen::VectorXd bad = qd;
  bad[0] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(field_of(q, bad, 0.0).find("finite"), std::string::npos);
  EXPECT_NE(field_of(q, qd, 0.1).find("t_end"), std::string::npos);
  // Refused input leaves the simulator as it was.
  EXPECT_EQ(sim.q(), q);
  EXPECT_TRUE(sim.step());
}

TEST(Simulator, AStartStateOfTheWrongSizeIsAnOptionErrorNamingIt) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("gigsp");
  const Eigen::VectorXd q = m.initial_positions(), qd = m.initial_velocities();
  const Eigen::VectorXd longer = Eigen::VectorXd::Zero(q.size() + 1);
  for (const auto& [a, b, field] : {std::tuple{longer, qd, "q"}, std::tuple{q, longer, "qd"}}) {
    try {
      simulator sim(m, a, b, *solver, simulation_options{});
      ADD_FAILURE() << "accepted a start state of the wrong size";
    } catch (const io::option_error& e) {
      EXPECT_EQ(e.field(), field);
    }
  }
}

// x'' = -1e8 x with dt = 1e-3 (test_simulation_divergence.cpp): RK4 diverges.
TEST(Simulator, ADivergingRunReportsFailure) {
  const model m = load_model_from_string(R"toml(
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 1.0
force = "-1e8*x"
)toml",
                                         "stiff.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.02;
  simulator sim(m, *solver, o);
  long long steps = 0;
  while (sim.step()) ++steps;
  EXPECT_LT(steps, 10);
  EXPECT_FALSE(sim.running());
  const simulation_result r = sim.result();
  EXPECT_EQ(r.stop, simulation_stop::diverged);
  EXPECT_EQ(r.status(), "diverged");
  EXPECT_FALSE(r.completed);
  EXPECT_TRUE(sim.last().final);
}

}  // namespace
}  // namespace kinevo::mechanics
