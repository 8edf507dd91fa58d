// Simulation: energy of the double pendulum, the redundant five-bar against its closed form,
// the pendulum against an independent one-coordinate integration, stabilization and stops.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mechanics/model.hpp"
#include "mechanics/simulation.hpp"
#include "mechanics/solver_factory.hpp"

namespace kinevo::mechanics {
namespace {

const std::string examples = KINEVO_EXAMPLES;

TEST(Simulation, DoublePendulumKeepsItsEnergyOverTenSeconds) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 10.0;
  o.dt = 1e-3;
  o.stabilization = stabilization_kind::baumgarte;
  double e0 = 0.0, worst = 0.0;
  const simulation_result r = simulate(m, *solver, o, [&](const step_record& s) {
    if (s.t == 0.0) e0 = s.energy;
    worst = std::max(worst, std::abs(s.energy - e0) / std::abs(e0));
    return true;
  });
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.steps, 10000);
  EXPECT_LT(worst, 1e-7);
  EXPECT_LT(r.max_position_violation, 1e-8);
}

TEST(Simulation, ProjectionAndDormandPrinceAlsoKeepEnergy) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 2.0;
  o.dt = 1e-3;
  o.stabilization = stabilization_kind::projection;
  simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_LT(std::abs(r.final_energy - r.initial_energy), 1e-8 * std::abs(r.initial_energy));
  EXPECT_LT(r.max_position_violation, 1e-11);
  o.integrator = integrator_kind::dormand_prince;
  o.stabilization = stabilization_kind::none;
  o.dt = 0.01;
  r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.records.size(), 201u);
  EXPECT_LT(std::abs(r.final_energy - r.initial_energy), 1e-7 * std::abs(r.initial_energy));
}

TEST(Simulation, RedundantFiveBarFollowsTheClosedForm) {
  const model m = load_model(examples + "/fivebar_redundant.toml");
  for (const auto& name : {"gigsp", "uk"}) {
    auto solver = make_solver(name);
    simulation_options o;
    o.t_end = 6.5;  // one period of the input, through th = 0, +-pi/2, +-pi, 2 pi
    o.dt = 1e-3;
    o.stabilization = stabilization_kind::baumgarte;
    double worst = 0.0;
    const simulation_result r = simulate(m, *solver, o, [&](const step_record& s) {
      // th4 = th2 = 2 pi sin t for the parallel five-bar.
      worst = std::max(worst, std::abs(s.q[1] - 2.0 * std::numbers::pi * std::sin(s.t)));
      return true;
    });
    ASSERT_TRUE(r.completed) << name << ": " << r.message;
    EXPECT_LT(worst, 1e-9) << name;
  }
}

TEST(Simulation, InconsistentFiveBarStopsWithTheConstraintName) {
  const model m = load_model(examples + "/fivebar_inconsistent.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 1.0;
  const simulation_result r = simulate(m, *solver, o);
  EXPECT_FALSE(r.completed);
  EXPECT_NE(r.message.find("'link5_y'"), std::string::npos) << r.message;
}

// theta'' = -(g/l) sin(theta) by classical RK4 with a small step, independent of the model.
double pendulum_angle(double theta0, double t_end) {
  const double w2 = 9.81;
  double th = theta0, om = 0.0;
  const int n = 200000;
  const double h = t_end / n;
  auto acc = [w2](double x) { return -w2 * std::sin(x); };
  for (int i = 0; i < n; ++i) {
    const double k1 = acc(th), v1 = om;
    const double k2 = acc(th + 0.5 * h * v1), v2 = om + 0.5 * h * k1;
    const double k3 = acc(th + 0.5 * h * v2), v3 = om + 0.5 * h * k2;
    const double k4 = acc(th + h * v3), v4 = om + h * k3;
    th += h / 6 * (v1 + 2 * v2 + 2 * v3 + v4);
    om += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  return th;
}

TEST(Simulation, CartesianPendulumMatchesTheAngleEquation) {
  const model m = load_model(examples + "/pendulum.toml");
  for (const auto& name : direct_solver_names()) {
    auto solver = make_solver(name);
    simulation_options o;
    o.t_end = 3.0;
    o.dt = 1e-3;
    o.stabilization = stabilization_kind::projection;
    const simulation_result r = simulate(m, *solver, o);
    ASSERT_TRUE(r.completed) << name;
    const step_record& last = r.records.back();
    EXPECT_DOUBLE_EQ(last.t, 3.0);
    const double theta = std::atan2(last.q[0], -last.q[1]);
    EXPECT_NEAR(theta, pendulum_angle(0.1, 3.0), 1e-9) << name;
  }
}

TEST(Simulation, DormandPrinceDenseOutputMatchesTheAngleEquation) {
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 3.0;
  o.dt = 0.25;  // records every 0.25 s; steps are chosen by the error control
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.stabilization = stabilization_kind::projection;
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.records.size(), 13u);
  for (std::size_t k : {3u, 7u, 12u}) {  // interpolated and final records
    const step_record& s = r.records[k];
    EXPECT_NEAR(s.t, 0.25 * static_cast<double>(k), 1e-12);
    EXPECT_NEAR(std::atan2(s.q[0], -s.q[1]), pendulum_angle(0.1, s.t), 1e-8) << s.t;
  }
}

TEST(Simulation, ReferenceSolverDifferenceAndCallbackStop) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = make_solver("kv");
  auto reference = make_solver("gigsp");
  simulation_options o;
  o.t_end = 1.0;
  o.dt = 1e-2;
  int calls = 0;
  const simulation_result r = simulate(
      m, *solver, o, [&](const step_record&) { return ++calls < 5; }, reference.get());
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(calls, 5);
  EXPECT_LT(r.max_reference_difference, 1e-10);
  EXPECT_TRUE(r.records.empty());
}

TEST(Simulation, SameInputSameResult) {
  const model m = load_model(examples + "/haug_fourbar.toml");
  auto a = make_solver("gigsp");
  auto b = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.5;
  o.dt = 1e-3;
  const auto ra = simulate(m, *a, o), rb = simulate(m, *b, o);
  ASSERT_TRUE(ra.completed);
  EXPECT_EQ(ra.records.back().q, rb.records.back().q);
  // The driven crank turns at omega = 1 rad/s: phi1 = pi/2 + t.
  EXPECT_NEAR(ra.records.back().q[2], std::numbers::pi / 2 + 0.5, 1e-9);
}

}  // namespace
}  // namespace kinevo::mechanics
