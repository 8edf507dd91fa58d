// Components against closed forms: a slider on a translational joint with a spring, a body on
// a revolute joint with a rotational spring, an applied torque, a point on a line, and a
// rolling (nonholonomic) disc under a constant force.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::mechanics {
namespace {

step_record final_state(const std::string& text, double t_end,
                        const std::string& solver = "gigsp") {
  const model m = load_model_from_string(text, "component.toml");
  auto s = make_solver(solver);
  simulation_options o;
  o.t_end = t_end;
  o.dt = 1e-3;
  o.stabilization = stabilization_kind::baumgarte;
  const simulation_result r = simulate(m, *s, o);
  EXPECT_TRUE(r.completed) << r.message;
  if (m.has_energy()) {
    EXPECT_NEAR(r.final_energy, r.initial_energy, 1e-8 * (1.0 + std::abs(r.initial_energy)));
  }
  return r.records.back();
}

TEST(Components, SliderWithSpringOscillatesAtSqrtKOverM) {
  // Body on a horizontal translational joint, spring to the origin: x = x0 cos(sqrt(k/m) t).
  const auto r = final_state(R"toml(
[parameters]
k = 40.0
m = 2.5
[[body]]
name = "s"
mass = "m"
inertia = 0.3
position = [0.2, 0.0]
angle = 0.0
[[joint]]
type = "translational"
name = "slide"
body_i = "ground"
body_j = "s"
axis_i = [1.0, 0.0]
[[force]]
type = "spring_damper"
body_i = "ground"
body_j = "s"
point_j = [0.0, 0.0]
stiffness = "k"
rest_length = 0.0
)toml",
                             1.3);
  EXPECT_NEAR(r.q[0], 0.2 * std::cos(std::sqrt(40.0 / 2.5) * 1.3), 1e-9);
  EXPECT_NEAR(r.q[1], 0.0, 1e-10);
  EXPECT_NEAR(r.q[2], 0.0, 1e-10);
}

TEST(Components, PinnedBodyWithRotationalSpringAndTorque) {
  // Revolute at the centre of mass: phi'' = (-k phi + tau) / J, so
  // phi = tau/k + (phi0 - tau/k) cos(sqrt(k/J) t).
  const auto r = final_state(R"toml(
[[body]]
name = "w"
mass = 3.0
inertia = 0.5
position = [1.0, 2.0]
angle = 0.3
[[joint]]
type = "revolute"
name = "pin"
body_i = "ground"
point_i = [1.0, 2.0]
body_j = "w"
[[force]]
type = "rotational_spring_damper"
body_i = "ground"
body_j = "w"
stiffness = 8.0
[[force]]
type = "applied"
body = "w"
torque = 0.4
)toml",
                             0.9);
  const double w = std::sqrt(8.0 / 0.5), phi_eq = 0.4 / 8.0;
  EXPECT_NEAR(r.q[2], phi_eq + (0.3 - phi_eq) * std::cos(w * 0.9), 1e-9);
  EXPECT_NEAR(r.q[0], 1.0, 1e-10);
}

TEST(Components, ParticleOnAnInclinedLine) {
  // A particle on the line through the origin at 30 degrees, gravity -g: s'' = -g sin(30 deg).
  const auto r = final_state(R"toml(
[model]
gravity = [0.0, -9.81]
[[particle]]
name = "p"
mass = 1.5
position = ["cos(pi/6)", "sin(pi/6)"]
[[joint]]
type = "point_on_line"
name = "line"
body_i = "ground"
axis_i = ["cos(pi/6)", "sin(pi/6)"]
body_j = "p"
)toml",
                             0.5);
  const double s = 1.0 - 0.5 * 9.81 * 0.5 * 0.25;
  EXPECT_NEAR(r.q[0], s * std::cos(std::numbers::pi / 6), 1e-9);
  EXPECT_NEAR(r.q[1], s * std::sin(std::numbers::pi / 6), 1e-9);
}

TEST(Components, RollingDiscIsNonholonomic) {
  // Rolling without slip, R th' = x', under a constant force F: x'' = F / (m + J/R^2).
  const std::string text = R"toml(
[parameters]
R = 0.5
[[coordinate]]
name = "x"
initial = 0.0
velocity = 1.0
mass = 2.0
force = 3.0
[[coordinate]]
name = "th"
initial = 0.0
velocity = 2.0
mass = 0.25
[[constraint]]
name = "rolling"
nonholonomic = "R*th_dot - x_dot"
)toml";
  const model m = load_model_from_string(text, "disc.toml");
  EXPECT_EQ(m.holonomic_constraints(), 0);
  EXPECT_FALSE(m.has_energy());
  const double a = 3.0 / (2.0 + 0.25 / 0.25);
  for (const auto& name : direct_solver_names()) {
    const auto r =
        make_solver(name)->solve(m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0));
    EXPECT_NEAR(r.acceleration[0], a, 1e-12) << name;
    EXPECT_NEAR(r.acceleration[1], a / 0.5, 1e-12) << name;
  }
  const auto r = final_state(text, 2.0);
  EXPECT_NEAR(r.q[0], 2.0 + 0.5 * a * 4.0, 1e-9);
  EXPECT_NEAR(0.5 * r.qd[1] - r.qd[0], 0.0, 1e-10);
}

}  // namespace
}  // namespace kinevo::mechanics
