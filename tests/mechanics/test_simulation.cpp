// Simulation: energy of the double pendulum, the redundant five-bar against its closed form,
// the pendulum against an independent one-coordinate integration, stabilization and stops.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;

// Whether `f` throws io::option_error naming `field` (and a range in its message).
template <class F>
bool refuses(const F& f, const std::string& field) {
  try {
    f();
  } catch (const io::option_error& e) {
    return e.field() == field && std::string(e.what()).find("must be") != std::string::npos;
  }
  return false;
}

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

// A direct solver whose answer a test edits by call number (0 = the first solve): the
// deterministic stand-in for an iterative solver that fails to converge at a given solve.
class scripted_solver final : public acceleration_solver {
 public:
  explicit scripted_solver(std::function<void(long long, acceleration_result&)> edit)
      : inner_(make_solver("gigsp")), edit_(std::move(edit)) {}
  std::string name() const override { return "scripted"; }
  acceleration_result solve(const constrained_system& system) override {
    acceleration_result r = inner_->solve(system);
    edit_(calls++, r);
    return r;
  }
  long long calls = 0;

 private:
  std::unique_ptr<acceleration_solver> inner_;
  std::function<void(long long, acceleration_result&)> edit_;
};

// RK4 solves 4 times per step: call 4k is the record at t = k dt, calls 4k + 1..3 are the
// stages at (k + 1/2) dt, (k + 1/2) dt and (k + 1) dt. Call 6 is the third stage of step 1,
// at t = 0.015 for dt = 0.01.
scripted_solver unconverged_at_call_6() {
  return scripted_solver([](long long call, acceleration_result& r) {
    if (call == 6) {
      r.status = solve_status::not_converged;
      r.message = "scripted: stopped at the run limit";
    }
  });
}

TEST(Simulation, UnconvergedSolveStopsTheRunBeforeItsState) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = unconverged_at_call_6();
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  const simulation_result r = simulate(m, solver, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.stop, simulation_stop::not_converged);
  EXPECT_EQ(solver.calls, 7);  // nothing solved after the failure
  // The records before the step the failure belongs to (t = 0 and 0.01); none after it.
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_DOUBLE_EQ(r.records.back().t, 0.01);
  for (const auto& rec : r.records) EXPECT_EQ(rec.worst_status, solve_status::ok);
  EXPECT_EQ(r.solves, 7);
  EXPECT_EQ(r.unconverged_solves, 1);
  EXPECT_DOUBLE_EQ(r.first_unconverged_t, 0.015);
  EXPECT_EQ(r.first_unconverged_message, "scripted: stopped at the run limit");
  EXPECT_NE(r.message.find("t = 0.015"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("did not converge"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("run limit"), std::string::npos) << r.message;

  // Dormand-Prince solves through the same path.
  auto dopri_solver = unconverged_at_call_6();
  o.integrator = integrator_kind::dormand_prince;
  const simulation_result d = simulate(m, dopri_solver, o);
  EXPECT_EQ(d.stop, simulation_stop::not_converged);
  EXPECT_EQ(dopri_solver.calls, 7);
  EXPECT_EQ(d.unconverged_solves, 1);
}

TEST(Simulation, AllowedUnconvergedSolveIsFlaggedInTheNextRecordAndCounted) {
  const model m = load_model(examples + "/double_pendulum.toml");
  auto solver = unconverged_at_call_6();
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  o.allow_unconverged = true;
  const simulation_result r = simulate(m, solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.stop, simulation_stop::none);
  ASSERT_EQ(r.records.size(), 11u);
  EXPECT_EQ(r.unconverged_solves, 1);
  EXPECT_EQ(r.solves, 41);
  EXPECT_DOUBLE_EQ(r.first_unconverged_t, 0.015);
  // The record at t = 0.02 is the state that stage led to.
  for (std::size_t k = 0; k < r.records.size(); ++k) {
    EXPECT_EQ(r.records[k].unconverged_solves, k == 2 ? 1 : 0) << k;
    EXPECT_EQ(r.records[k].worst_status, k == 2 ? solve_status::not_converged : solve_status::ok)
        << k;
    EXPECT_EQ(r.records[k].status, solve_status::ok) << k;  // its own solve converged
  }
  const auto row = record_row(m, r.records[2], false);
  const auto columns = record_columns(m, false);
  ASSERT_EQ(row.size(), columns.size());
  EXPECT_EQ(columns[columns.size() - 2], "solve_status");
  EXPECT_EQ(columns.back(), "unconverged_solves");
  EXPECT_EQ(row[row.size() - 2], 4.0);  // the code of not_converged
  EXPECT_EQ(row.back(), 1.0);

  // With every 4th record kept, the kept record after the skipped ones still shows the solve.
  auto again = unconverged_at_call_6();
  o.record_every = 4;
  const simulation_result sparse = simulate(m, again, o);
  ASSERT_TRUE(sparse.completed);
  ASSERT_EQ(sparse.records.size(), 4u);  // t = 0, 0.04, 0.08 and the final 0.1
  EXPECT_EQ(sparse.records[1].unconverged_solves, 1);
  EXPECT_EQ(sparse.records[1].worst_status, solve_status::not_converged);
  EXPECT_EQ(sparse.records[2].unconverged_solves, 0);
}

TEST(Simulation, LeastSquaresSolvesAreCountedAndTheRunGoesOn) {
  const model m = load_model(examples + "/fivebar_inconsistent.toml");
  auto solver = make_solver("uk");
  simulation_options o;
  o.t_end = 0.01;
  o.dt = 1e-3;
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  EXPECT_EQ(r.least_squares_solves, r.solves);
  EXPECT_EQ(r.unconverged_solves, 0);
  EXPECT_EQ(r.records.back().worst_status, solve_status::least_squares);
}

TEST(Simulation, NonFiniteAccelerationOrStateStopsAtTheLastFiniteRecord) {
  const model m = load_model(examples + "/double_pendulum.toml");
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 0.01;
  auto nan_solver = scripted_solver([](long long call, acceleration_result& r) {
    if (call == 9) r.acceleration[0] = std::numeric_limits<double>::quiet_NaN();
  });
  const simulation_result a = simulate(m, nan_solver, o);
  EXPECT_FALSE(a.completed);
  EXPECT_EQ(a.stop, simulation_stop::non_finite);
  ASSERT_EQ(a.records.size(), 3u);  // t = 0, 0.01, 0.02; call 9 is a stage of step 2
  for (const auto& rec : a.records) EXPECT_TRUE(rec.q.allFinite() && rec.qdd.allFinite());
  EXPECT_NE(a.message.find("non-finite acceleration"), std::string::npos) << a.message;

  // Finite but enormous stage accelerations: the stage state of call 6 (after the huge k2) is
  // huge but finite, and the model's constraints at it are NaN, which the solver refuses
  // (status non_finite: the system is checked before solving) before the state overflows.
  auto huge_solver = scripted_solver([](long long call, acceleration_result& r) {
    if (call >= 5 && call <= 7) r.acceleration.setConstant(std::numeric_limits<double>::max());
  });
  const simulation_result b = simulate(m, huge_solver, o);
  EXPECT_FALSE(b.completed);
  EXPECT_EQ(b.stop, simulation_stop::non_finite);
  EXPECT_EQ(huge_solver.calls, 7);
  ASSERT_EQ(b.records.size(), 2u);
  EXPECT_NE(b.message.find("not finite"), std::string::npos) << b.message;
  EXPECT_NE(b.message.find("constraint 'rod1'"), std::string::npos) << b.message;
}

TEST(Simulation, NaNForceNamesTheCoordinate) {
  const model m = load_model_from_string(R"toml(
[[coordinate]]
name = "x"
initial = 0.0
mass = 1.0
force = "log(x - 10)"
)toml",
                                         "nan.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = 0.1;
  const simulation_result r = simulate(m, *solver, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.stop, simulation_stop::non_finite);
  EXPECT_TRUE(r.records.empty());
  EXPECT_NE(r.message.find("force of 'x'"), std::string::npos) << r.message;
}

TEST(SimulationOptions, ValidateNamesTheFieldOfEveryBadValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_NO_THROW(simulation_options{}.validate());
  const std::vector<std::pair<std::string, std::function<void(simulation_options&)>>> cases{
      {"t_start", [&](simulation_options& o) { o.t_start = nan; }},
      {"t_end", [&](simulation_options& o) { o.t_end = inf; }},
      {"t_end", [&](simulation_options& o) { o.t_end = o.t_start; }},
      {"dt", [&](simulation_options& o) { o.dt = inf; }},
      {"dt", [&](simulation_options& o) { o.dt = 0.0; }},
      {"rtol", [&](simulation_options& o) { o.rtol = -1.0; }},
      {"atol", [&](simulation_options& o) { o.atol = nan; }},
      {"dt_min", [&](simulation_options& o) { o.dt_min = 0.0; }},
      {"baumgarte_alpha", [&](simulation_options& o) { o.baumgarte_alpha = nan; }},
      {"baumgarte_beta", [&](simulation_options& o) { o.baumgarte_beta = inf; }},
      {"baumgarte_gamma", [&](simulation_options& o) { o.baumgarte_gamma = -1.0; }},
      {"projection_tolerance", [&](simulation_options& o) { o.projection_tolerance = nan; }},
      {"projection_iterations", [&](simulation_options& o) { o.projection_iterations = 0; }},
      {"record_every", [&](simulation_options& o) { o.record_every = 0; }},
      {"divergence_growth", [&](simulation_options& o) { o.divergence_growth = 1.0; }},
      {"divergence_growth", [&](simulation_options& o) { o.divergence_growth = inf; }},
      {"divergence_violation", [&](simulation_options& o) { o.divergence_violation = 0.0; }},
      {"divergence_violation", [&](simulation_options& o) { o.divergence_violation = nan; }},
      {"divergence_energy", [&](simulation_options& o) { o.divergence_energy = 0.5; }},
      {"divergence_energy", [&](simulation_options& o) { o.divergence_energy = nan; }}};
  for (const auto& [field, spoil] : cases) {
    simulation_options o;
    spoil(o);
    EXPECT_TRUE(refuses([&] { o.validate(); }, field)) << field;
  }
  // simulate() refuses them on entry, not only the CLI.
  const model m = load_model(examples + "/pendulum.toml");
  auto solver = make_solver("gigsp");
  simulation_options o;
  o.t_end = inf;
  EXPECT_TRUE(refuses([&] { simulate(m, *solver, o); }, "t_end"));
}

TEST(SolverOptions, ValidateNamesTheFieldOfEveryBadValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NO_THROW(solver_options{}.validate());
  const std::vector<std::pair<std::string, std::function<void(solver_options&)>>> cases{
      {"rank_tolerance", [&](solver_options& o) { o.direct.rank_tolerance = nan; }},
      {"rank_tolerance", [&](solver_options& o) { o.direct.rank_tolerance = 1e308; }},
      {"consistency_tolerance", [&](solver_options& o) { o.direct.consistency_tolerance = -1.0; }},
      {"degenerate_tolerance", [&](solver_options& o) { o.direct.degenerate_tolerance = nan; }},
      {"threads", [&](solver_options& o) { o.direct.threads = -1; }}};
  // The GA solver's islands and tolerance are its own: tests/gauss checks them.
  for (const auto& [field, spoil] : cases) {
    solver_options o;
    spoil(o);
    EXPECT_TRUE(refuses([&] { o.validate(); }, field)) << field;
    // make_solver refuses them too: a NaN rank tolerance used to drop every constraint.
    EXPECT_TRUE(refuses([&] { (void)make_solver("gigsp", o); }, field)) << field;
  }
}

}  // namespace
}  // namespace kinevo::mechanics
