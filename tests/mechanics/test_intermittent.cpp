// Intermittent constraints (docs/intermittent.md): the disc that slips and then rolls of the
// generalized-inverse dissertation (GIGSP), section 4.3.2, Example 3, eqs. 4.22-4.32
// (examples/disc_slip_roll.toml), against its closed form; a rolling disc driven by a growing
// torque that breaks away into slipping; the solvers across the switch; bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

// The disc example's numbers are short names at namespace scope (m, R, mu, g, w0, as in the
// source): a namespace of their own keeps them from the other files of a unity batch.
namespace kinevo::mechanics::intermittent_disc_test {
namespace {

const std::string disc_file = std::string(KINEVO_EXAMPLES) + "/disc_slip_roll.toml";

// The example's numbers (kept in step with the file's [parameters]).
constexpr double m = 1.0, R = 0.1, mu = 0.3, g = 9.81, w0 = 8.829;

// C(t) = R w0 - 3 mu g t while slipping: |C| = tol at this time.
double switch_time(double tol) {
  return (R * w0 - tol) / (3.0 * mu * g);
}

model disc(double tol) {
  model_options o;
  o.overrides.push_back({"tol", tol});
  return load_model(disc_file, o);
}

simulation_options run_options(integrator_kind integrator, double t_end = 0.2) {
  simulation_options o;
  o.integrator = integrator;
  o.t_end = t_end;
  o.dt = 1e-3;
  return o;
}

double kinetic_energy(const Eigen::VectorXd& qd) {
  return 0.5 * m * qd[0] * qd[0] + 0.25 * m * R * R * qd[1] * qd[1];
}

TEST(intermittent, model_reports_its_intermittent_rows) {
  const model d = disc(1e-6);
  ASSERT_EQ(d.intermittent_constraints().size(), 1u);
  const auto& k = d.intermittent_constraints()[0];
  EXPECT_EQ(d.constraint_names()[static_cast<std::size_t>(k.row)], "rolling");
  EXPECT_FALSE(k.initially_active);
  EXPECT_TRUE(k.has_friction);
  EXPECT_DOUBLE_EQ(k.on_tolerance, 1e-6);
  intermittent_values v;
  // Slip R w0 at the start: F = mu m g, on = |C| - tol.
  d.evaluate_intermittent(d.initial_positions(), d.initial_velocities(), 0.0,
                          Eigen::VectorXd::Zero(1), v);
  EXPECT_NEAR(v.friction[0], mu * m * g, 1e-12);
  EXPECT_NEAR(v.on[0], R * w0 - 1e-6, 1e-12);
  EXPECT_NEAR(v.off[0], mu * m * g, 1e-12);  // F - |force| with force 0
}

// The transition time against the closed form, to the event tolerance, both integrators and
// both criteria of the example (1e-3 loose, 1e-6 strict), at the example's spin (t* = 0.1 s, on
// the output grid) and at one that puts t* between grid points. The slip is linear in t while it
// slips, so RK4 and the continuous extension follow it to round-off.
TEST(intermittent, disc_starts_rolling_at_the_closed_form_time) {
  for (const double spin : {w0, 8.5}) {
    for (const double tol : {1e-3, 1e-6}) {
      for (const auto integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
        model_options mo;
        mo.overrides = {{"tol", tol}, {"w0", spin}};
        const model d = load_model(disc_file, mo);
        auto solver = make_solver("gigsp");
        const simulation_result r = simulate(d, *solver, run_options(integrator));
        ASSERT_TRUE(r.completed) << r.message;
        ASSERT_EQ(r.events.size(), 1u) << "tol " << tol << " w0 " << spin;
        EXPECT_EQ(r.events[0].constraint, "rolling");
        EXPECT_TRUE(r.events[0].on);
        EXPECT_NEAR(r.events[0].t, (R * spin - tol) / (3.0 * mu * g), 2e-10)
            << "tol " << tol << " w0 " << spin;
        EXPECT_NEAR(std::abs(r.events[0].value), tol, 1e-8);
        EXPECT_NEAR(r.records.back().qd[0], R * spin / 3.0, 1e-12);
      }
    }
  }
}

// Kinetic energy lost = friction work (integral of mu m g |C| dt up to the switch) plus the
// energy the projection onto the rolling row takes (m_eff C^2 / 2, m_eff = 1/(A M^-1 A^T) =
// m / 3), to 1e-6 relative; and rolling at R w0 / 3 to the end, with no other event.
TEST(intermittent, energy_lost_equals_friction_work_and_no_chattering) {
  for (const double tol : {1e-3, 1e-6}) {
    for (const auto integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
      const model d = disc(tol);
      auto solver = make_solver("gigsp");
      const simulation_result r = simulate(d, *solver, run_options(integrator, 0.5));
      ASSERT_TRUE(r.completed) << r.message;
      ASSERT_EQ(r.events.size(), 1u);
      const double te = r.events[0].t;
      const double friction_work =
          mu * m * g * (R * w0 * te - 1.5 * mu * g * te * te);  // integral of F C dt
      const double projection_loss = m / 3.0 * tol * tol / 2.0;
      const double t0 = kinetic_energy(r.records.front().qd);
      const double t1 = kinetic_energy(r.records.back().qd);
      EXPECT_NEAR((t0 - t1) / (friction_work + projection_loss), 1.0, 1e-6) << "tol " << tol;
      EXPECT_NEAR(r.final_energy, t1, 1e-12);  // the model's energy is the kinetic one
      for (const auto& rec : r.records) {
        ASSERT_EQ(rec.active.size(), 1u);
        EXPECT_EQ(rec.active[0] != 0, rec.t >= te) << "t = " << rec.t;
        if (rec.t >= te) {
          EXPECT_LE(std::abs(R * rec.qd[1] - rec.qd[0]), 1e-12) << "t = " << rec.t;
          EXPECT_NEAR(rec.qd[0], R * w0 / 3.0, 1e-12);  // the projection lands on R w0 / 3
        }
      }
      EXPECT_NEAR(r.records.back().qd[0], R * w0 / 3.0, 1e-12);
    }
  }
}

// Every direct solver sees the reduced row set: none before the switch, the rolling row after.
TEST(intermittent, every_direct_solver_crosses_the_switch) {
  const model d = disc(1e-6);
  for (const auto& name : direct_solver_names()) {
    auto solver = make_solver(name);
    const simulation_result r = simulate(d, *solver, run_options(integrator_kind::rk4));
    ASSERT_TRUE(r.completed) << name << ": " << r.message;
    ASSERT_EQ(r.events.size(), 1u) << name;
    EXPECT_NEAR(r.events[0].t, switch_time(1e-6), 2e-10) << name;
    EXPECT_NEAR(r.records.back().qd[0], R * w0 / 3.0, 1e-6) << name;
    EXPECT_LE(r.max_velocity_violation, 1e-12) << name;
  }
}

// A rolling disc driven by the torque k t: rolling needs the friction force
// lambda = tau / (R (1 + m R^2 / I)) = tau / (1.5 R), which exceeds mu m g at
// t_off = 1.5 R mu m g / k; then the disc slips (spinning faster than it rolls) to the end.
const char* torque_disc = R"(
[parameters]
m = 1.0
R = 0.1
mu = 0.3
g = 9.81
k = 2.0

[[coordinate]]
name = "x"
initial = 0
mass = "m"

[[coordinate]]
name = "th"
initial = 0
mass = "m*R^2/2"
force = "k*t"

[[constraint]]
name = "rolling"
nonholonomic = "R*th_dot - x_dot"
friction = "mu*m*g"
)";

TEST(intermittent, rolling_breaks_into_slipping_when_the_force_exceeds_friction) {
  const model d = load_model_from_string(torque_disc, "torque_disc.toml");
  const double t_off = 1.5 * 0.1 * 0.3 * 1.0 * 9.81 / 2.0;
  for (const auto integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    auto solver = make_solver("gigsp");
    const simulation_result r = simulate(d, *solver, run_options(integrator, 0.5));
    ASSERT_TRUE(r.completed) << r.message;
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_FALSE(r.events[0].on);
    EXPECT_NEAR(r.events[0].t, t_off, 1e-9);
    // Slipping after: x'' = mu g exactly (friction at its limit forward).
    const auto& last = r.records.back();
    EXPECT_EQ(last.active[0], 0);
    EXPECT_NEAR(last.qdd[0], 0.3 * 9.81, 1e-9);
    EXPECT_GT(0.1 * last.qd[1] - last.qd[0], 0.0);
  }
}

TEST(intermittent, formulations_other_than_full_and_projection_are_refused_by_name) {
  const model d = disc(1e-6);
  auto solver = make_solver("gigsp");
  simulation_options o = run_options(integrator_kind::rk4);
  o.formulation.kind = formulation_kind::projection;
  try {
    (void)simulate(d, *solver, o);
    FAIL() << "accepted";
  } catch (const io::option_error& e) {
    EXPECT_NE(std::string(e.what()).find("intermittent"), std::string::npos) << e.what();
  }
  o = run_options(integrator_kind::rk4);
  o.stabilization = stabilization_kind::projection;
  EXPECT_THROW((void)simulate(d, *solver, o), io::option_error);
}

std::string load_error(const std::string& text) {
  try {
    (void)load_model_from_string(text, "bad.toml");
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "loaded";
}

TEST(intermittent, bad_input_is_named_with_file_line_and_field) {
  const std::string coords = R"(
[[coordinate]]
name = "x"
initial = 0
mass = 1
)";
  const std::string holonomic = load_error(coords + R"(
[[constraint]]
name = "wall"
holonomic = "x"
friction = 1
)");
  EXPECT_NE(holonomic.find("bad.toml:10"), std::string::npos) << holonomic;
  EXPECT_NE(holonomic.find("friction"), std::string::npos) << holonomic;
  EXPECT_NE(holonomic.find("only a nonholonomic"), std::string::npos) << holonomic;
  const std::string unknown = load_error(coords + R"(
[[constraint]]
name = "stop"
nonholonomic = "x_dot"
on = "abs(x_dot) - speed"
)");
  EXPECT_NE(unknown.find("bad.toml:"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("'on'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("speed"), std::string::npos) << unknown;
  const std::string never = load_error(coords + R"(
[[constraint]]
name = "stop"
nonholonomic = "x_dot"
active = false
)");
  EXPECT_NE(never.find("never switch on"), std::string::npos) << never;
  const std::string force_in_on = load_error(coords + R"(
[[constraint]]
name = "stop"
nonholonomic = "x_dot"
on = "force"
)");
  EXPECT_NE(force_in_on.find("force"), std::string::npos) << force_in_on;
}

// A block thrown up a slope (angle alpha, x up the slope, initial speed v0) with the row
// "stick" (x' = 0) off and Coulomb friction mu m g cos(alpha): it stops at
// t1 = (v0 - tol) / (g (sin + mu cos)). Steeper than the friction angle (tan alpha > mu) the
// slip reverses there (on and off at t1, then x'' = -g (sin - mu cos)); otherwise it sticks.
std::string slope(double mu_slope) {
  return R"toml(
[parameters]
m = 1.0
g = 9.81
alpha = 0.5235987755982988
mu = )toml" +
         std::to_string(mu_slope) +
         R"toml(

[[coordinate]]
name = "x"
initial = 0
velocity = 2
mass = "m"
force = "-m*g*sin(alpha)"

[[constraint]]
name = "stick"
nonholonomic = "x_dot"
active = false
friction = "mu*m*g*cos(alpha)"
)toml";
}

TEST(intermittent, slip_reverses_on_a_slope_steeper_than_the_friction_angle) {
  const double alpha = 0.5235987755982988;
  for (const auto integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    for (const double mu_slope : {0.3, 0.7}) {
      const model d = load_model_from_string(slope(mu_slope), "slope.toml");
      auto solver = make_solver("gigsp");
      const simulation_result r = simulate(d, *solver, run_options(integrator, 1.0));
      ASSERT_TRUE(r.completed) << r.message;
      const double t1 = (2.0 - 1e-6) / (g * (std::sin(alpha) + mu_slope * std::cos(alpha)));
      ASSERT_GE(r.events.size(), 1u);
      EXPECT_TRUE(r.events[0].on);
      EXPECT_NEAR(r.events[0].t, t1, 1e-9);
      const auto& last = r.records.back();
      if (mu_slope < std::tan(alpha)) {
        ASSERT_EQ(r.events.size(), 2u);
        EXPECT_FALSE(r.events[1].on);
        EXPECT_EQ(r.events[1].t, r.events[0].t);
        EXPECT_EQ(last.active[0], 0);
        EXPECT_NEAR(last.qdd[0], -g * (std::sin(alpha) - mu_slope * std::cos(alpha)), 1e-9);
        EXPECT_NEAR(last.qd[0], -g * (std::sin(alpha) - mu_slope * std::cos(alpha)) * (1.0 - t1),
                    1e-6);
      } else {
        EXPECT_EQ(r.events.size(), 1u);
        EXPECT_EQ(last.active[0], 1);
        EXPECT_EQ(last.qd[0], 0.0);
      }
    }
  }
}

// A row whose `off` condition fails as soon as it is switched on cannot hold: the run stops
// saying so instead of switching back and forth.
TEST(intermittent, a_row_that_cannot_hold_stops_as_chattering) {
  const model d = load_model_from_string(R"(
[[coordinate]]
name = "x"
initial = 0
velocity = 1
mass = 1
force = -1

[[constraint]]
name = "stop"
nonholonomic = "x_dot"
active = false
on = "x_dot - 0.5"
off = "-1"
)",
                                         "chatter.toml");
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(d, *solver, run_options(integrator_kind::rk4, 1.0));
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.stop, simulation_stop::chattering);
  EXPECT_NE(r.message.find("'stop'"), std::string::npos) << r.message;
  EXPECT_EQ(r.events.size(), 1u);
}

TEST(intermittent, csv_columns_and_json_events) {
  const model d = disc(1e-6);
  const auto columns = record_columns(d, false);
  EXPECT_EQ(columns.back(), "rolling_slip");
  EXPECT_EQ(columns[columns.size() - 2], "rolling_active");
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(d, *solver, run_options(integrator_kind::rk4));
  const auto row = record_row(d, r.records.back(), false);
  ASSERT_EQ(row.size(), columns.size());
  EXPECT_EQ(row[row.size() - 2], 1.0);
  EXPECT_LE(std::abs(row.back()), 1e-12);
  EXPECT_NEAR(record_row(d, r.records.front(), false).back(), R * w0, 1e-12);
  const nlohmann::json j = r.to_json();
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["constraint"], "rolling");
  EXPECT_EQ(j["events"][0]["kind"], "on");
  EXPECT_NEAR(j["events"][0]["t"].get<double>(), switch_time(1e-6), 2e-10);
}

}  // namespace
}  // namespace kinevo::mechanics::intermittent_disc_test

namespace kinevo::mechanics {
namespace {

// examples/constant_speed_driver.toml (GIGSP, section 4.3.2, Example 4, simplified): the slip
// phase integrated independently (its equations written out here, classical RK4 with a step
// of 1e-5 s and linear interpolation of C to tol) against the simulation's event.
TEST(intermittent, constant_speed_driver_stops_slipping_at_the_independent_time) {
  const double J1 = 0.01, J3 = 0.00825, r = 0.05, rho0 = 0.1, mx = 0.5, k2 = 500.0, C = 20.0,
               me = 5e-5, M0 = 3.0, eps = 0.05, W = 30.0, c1 = 0.02, c3 = 0.002, F = 20.0,
               tol = 1e-6;
  using state = Eigen::Matrix<double, 6, 1>;  // phi1, phi3, x and their rates
  auto rate = [&](double t, const state& s) {
    const double rho = rho0 - s[2];
    state d;
    d << s[3], s[4], s[5],
        (M0 * (1.0 + eps * std::sin(W * t)) - c1 * s[3] - F * rho) / J1,  // slip C > 0
        (-c3 * s[4] + F * r) / J3, (me * s[4] * s[4] - k2 * s[2] - C * s[5]) / mx;
    return d;
  };
  auto slip = [&](const state& s) { return (rho0 - s[2]) * s[3] - r * s[4]; };
  state s = state::Zero();
  const double h = 1e-5;
  double t = 0.0, expected = -1.0;
  bool slipped = false;
  while (t < 2.0) {
    const state s1 = rate(t, s), s2 = rate(t + h / 2, s + h / 2 * s1),
                s3 = rate(t + h / 2, s + h / 2 * s2), s4 = rate(t + h, s + h * s3);
    const state next = s + h / 6 * (s1 + 2 * s2 + 2 * s3 + s4);
    const double c0 = slip(s) - tol, c1n = slip(next) - tol;
    slipped = slipped || c0 > 0.0;
    if (slipped && c1n <= 0.0) {
      expected = t + h * c0 / (c0 - c1n);
      break;
    }
    s = next;
    t += h;
  }
  ASSERT_GT(expected, 0.6);
  ASSERT_LT(expected, 0.66);
  const model d = load_model(std::string(KINEVO_EXAMPLES) + "/constant_speed_driver.toml");
  for (const auto integrator : {integrator_kind::rk4, integrator_kind::dormand_prince}) {
    auto solver = make_solver("gigsp");
    simulation_options o;
    o.integrator = integrator;
    o.t_end = 1.5;
    o.dt = 1e-3;
    const simulation_result res = simulate(d, *solver, o);
    ASSERT_TRUE(res.completed) << res.message;
    ASSERT_EQ(res.events.size(), 1u);
    EXPECT_EQ(res.events[0].constraint, "contact");
    EXPECT_TRUE(res.events[0].on);
    EXPECT_NEAR(res.events[0].t, expected, 1e-8);
    // Rolling to the end: the contact row holds (no slip, one event).
    EXPECT_LE(res.max_velocity_violation, 1e-9);
    EXPECT_EQ(res.records.back().active[0], 1);
  }
}

}  // namespace
}  // namespace kinevo::mechanics
