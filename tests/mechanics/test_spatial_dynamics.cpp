// Physics of spatial rigid bodies (Euler parameters, `space = "spatial"`) against closed forms
// and conservation laws, never against numbers from an earlier run: a tumbling free body keeps
// its kinetic energy, angular momentum and linear momentum; a torque-free symmetric top follows
// the closed-form solution of Euler's equations; a full inertia tensor moves like its principal
// twin; the heavy top precesses steadily (with every direct solver and formulation); a particle
// conical pendulum circles uniformly; the spherical pendulum with flywheel
// (examples/spherical_pendulum_flywheel.toml) keeps its energy and its angular momentum about
// the vertical, and the wheel's spin changes only by the applied torque (external, and as a
// motor reacting on the rod); an applied pair with reaction and a spring-damper between two
// bodies keep their total momenta. The test computes E(p), G(p) and A(p) itself (Haug,
// Computer-Aided Kinematics and Dynamics of Mechanical Systems, section 6.3) instead of calling
// mechanics/model/detail/euler_parameters.hpp, so that an error there cannot cancel out.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "mechanics_test_support.hpp"
#include "spatial_test_support.hpp"

namespace kinevo::mechanics {
namespace {

using kinevo::test::examples;
using kinevo::test::read_text;

using spatial_test::e_matrix;
using spatial_test::g_matrix;
using spatial_test::num;
using spatial_test::vec;

// The state of one spatial body, read by coordinate name from q and q'.
struct body_state {
  Eigen::Vector3d r, v;
  Eigen::Vector4d p, p_dot;
  Eigen::Matrix3d rotation() const { return e_matrix(p) * g_matrix(p).transpose(); }
  Eigen::Vector3d omega_body() const { return 2.0 * g_matrix(p) * p_dot; }  // w' = 2 G p'
};

int index_of(const model& m, const std::string& name) {
  const auto& names = m.coordinate_names();
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return static_cast<int>(it - names.begin());
}

body_state state_of(const model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                    const std::string& body) {
  body_state s;
  for (int k = 0; k < 3; ++k) {
    const int i = index_of(m, body + "_" + "xyz"[k]);
    s.r[k] = q[i];
    s.v[k] = qd[i];
  }
  for (int k = 0; k < 4; ++k) {
    const int i = index_of(m, body + "_e" + std::to_string(k));
    s.p[k] = q[i];
    s.p_dot[k] = qd[i];
  }
  return s;
}
body_state state_of(const model& m, const step_record& r, const std::string& body) {
  return state_of(m, r.q, r.qd, body);
}

// Kinetic energy 1/2 m v.v + 1/2 w'^T J w' and angular momentum about the origin,
// m r x v + A J w' (J the centroidal inertia in body axes).
double kinetic_energy(const body_state& s, double mass, const Eigen::Matrix3d& inertia) {
  const Eigen::Vector3d w = s.omega_body();
  return 0.5 * mass * s.v.squaredNorm() + 0.5 * w.dot(inertia * w);
}
Eigen::Vector3d angular_momentum(const body_state& s, double mass, const Eigen::Matrix3d& inertia) {
  return mass * s.r.cross(s.v) + s.rotation() * inertia * s.omega_body();
}

// Dormand-Prince with tight error control, records every `dt`.
simulation_options tight_dormand_prince(double t_end, double dt, double rtol = 1e-12) {
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = t_end;
  o.dt = dt;
  o.rtol = rtol;
  o.atol = rtol * 1e-2;
  return o;
}

simulation_result run_gigsp(const model& m, const simulation_options& o) {
  auto solver = make_solver("gigsp");
  return simulate(m, *solver, o);
}

// Euler parameters (e0, e1, e2, e3) of a rotation matrix, through Eigen's quaternion.
Eigen::Vector4d parameters_of(const Eigen::Matrix3d& a) {
  const Eigen::Quaterniond q(a);
  return {q.w(), q.x(), q.y(), q.z()};
}

// A free body with asymmetric inertia J = diag(1, 2, 3), tumbling about no principal axis
// (w' = (0.3, 1, 2) in the body frame), from a general orientation, its centre moving.
const char* const free_body_text = R"(
[model]
name = "free body"
space = "spatial"

[[body]]
name = "b"
mass = 2
inertia = [1, 2, 3]
position = [0.1, -0.2, 0.3]
velocity = [0.5, -0.25, 0.125]
rotation_axis = [1, 2, 3]
rotation_angle = 0.7
angular_velocity = [0.3, 1, 2]
angular_velocity_frame = "body"
)";

TEST(SpatialDynamics, FreeBodyKeepsEnergyAndMomentum) {
  const model m = load_model_from_string(free_body_text, "free_body.toml");
  const double mass = 2.0;
  const Eigen::Matrix3d inertia = Eigen::Vector3d(1, 2, 3).asDiagonal();
  const simulation_result r = run_gigsp(m, tight_dormand_prince(10.0, 0.05));
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.records.size(), 201u);

  const body_state s0 = state_of(m, r.records.front(), "b");
  // The initial state is the one the file asks for.
  EXPECT_LT((s0.omega_body() - Eigen::Vector3d(0.3, 1, 2)).norm(), 1e-14);
  EXPECT_LT((s0.v - Eigen::Vector3d(0.5, -0.25, 0.125)).norm(), 1e-15);
  const double t0 = kinetic_energy(s0, mass, inertia);
  const Eigen::Vector3d h0 = angular_momentum(s0, mass, inertia);
  double worst_energy = 0, worst_momentum = 0, worst_velocity = 0, worst_position = 0;
  double worst_norm = 0, worst_model_energy = 0;
  for (const step_record& rec : r.records) {
    const body_state s = state_of(m, rec, "b");
    worst_energy = std::max(worst_energy, std::abs(kinetic_energy(s, mass, inertia) - t0) / t0);
    worst_momentum =
        std::max(worst_momentum, (angular_momentum(s, mass, inertia) - h0).norm() / h0.norm());
    worst_velocity = std::max(worst_velocity, (s.v - s0.v).norm());
    worst_position = std::max(worst_position, (s.r - s0.r - rec.t * s0.v).norm());
    worst_norm = std::max(worst_norm, std::abs(s.p.norm() - 1));
    worst_model_energy = std::max(worst_model_energy, std::abs(rec.energy - t0) / t0);
  }
  EXPECT_LT(worst_energy, 1e-9);
  EXPECT_LT(worst_momentum, 1e-9);
  EXPECT_LT(worst_model_energy, 1e-9);  // the model's own energy() is the same kinetic energy
  EXPECT_LT(worst_velocity, 1e-13);     // no force on the centre of mass: exact
  EXPECT_LT(worst_position, 1e-10);
  EXPECT_LT(worst_norm, 1e-9);
  // It did tumble: the body angular velocity moved well away from its initial value.
  const body_state s_end = state_of(m, r.records.back(), "b");
  EXPECT_GT((s_end.omega_body() - s0.omega_body()).norm(), 0.1);
}

// Torque-free symmetric top, I1 = I2 = 1, I3 = 2. Euler's equations (Goldstein, Classical
// Mechanics, sections 5.5-5.6)
//   I1 w1' = (I1 - I3) w2 w3,  I1 w2' = (I3 - I1) w3 w1,  I3 w3' = 0
// give w3 constant and, with Omega = (I3 - I1)/I1 w3,
//   w1 = a cos(Omega t) - b sin(Omega t),  w2 = a sin(Omega t) + b cos(Omega t).
TEST(SpatialDynamics, SymmetricTopPrecessesAtTheEulerRate) {
  const model m = load_model_from_string(R"(
[model]
name = "symmetric top"
space = "spatial"
gravity = [0, 0, -9.81]     # acts on the centre of mass only: no torque

[[body]]
name = "top"
mass = 1.5
inertia = [1, 1, 2]
position = [0, 0, 0]
rotation_axis = [0.3, -1, 0.5]
rotation_angle = 1.1
angular_velocity = [0.4, 0.3, 1.5]
angular_velocity_frame = "body"
)",
                                         "top.toml");
  const double a = 0.4, b = 0.3, w3 = 1.5, i1 = 1, i3 = 2;
  const double omega = (i3 - i1) / i1 * w3;
  const simulation_result r = run_gigsp(m, tight_dormand_prince(6.0, 0.25));
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.records.size(), 25u);
  double worst = 0;
  for (const step_record& rec : r.records) {
    const Eigen::Vector3d w = state_of(m, rec, "top").omega_body();
    const double t = rec.t;
    const Eigen::Vector3d expected(a * std::cos(omega * t) - b * std::sin(omega * t),
                                   a * std::sin(omega * t) + b * std::cos(omega * t), w3);
    worst = std::max(worst, (w - expected).norm());
    // Gravity only accelerates the centre: z = -g t^2 / 2.
    EXPECT_NEAR(state_of(m, rec, "top").r.z(), -0.5 * 9.81 * t * t, 1e-9) << t;
  }
  EXPECT_LT(worst, 1e-8);
}

// The spherical pendulum with flywheel: rod and wheel, their centroidal inertias (principal,
// body z along the rod) from the example file's header.
struct flywheel_pendulum {
  double rod_mass = 2.71944, wheel_mass = 4.89499;
  Eigen::Matrix3d rod_inertia = Eigen::Vector3d(0.05708, 0.05708, 0.0008498).asDiagonal();
  Eigen::Matrix3d wheel_inertia = Eigen::Vector3d(0.02779, 0.02779, 0.05507).asDiagonal();
  double gravity = 9.81;

  // Kinetic plus gravitational energy (the model has none: its torque does work).
  double energy(const model& m, const step_record& rec) const {
    const body_state rod = state_of(m, rec, "rod"), wheel = state_of(m, rec, "wheel");
    return kinetic_energy(rod, rod_mass, rod_inertia) +
           kinetic_energy(wheel, wheel_mass, wheel_inertia) +
           gravity * (rod_mass * rod.r.z() + wheel_mass * wheel.r.z());
  }
  // Angular momentum about the vertical through the spherical joint (the origin).
  double vertical_momentum(const model& m, const step_record& rec) const {
    return angular_momentum(state_of(m, rec, "rod"), rod_mass, rod_inertia).z() +
           angular_momentum(state_of(m, rec, "wheel"), wheel_mass, wheel_inertia).z();
  }
  // The wheel's absolute angular velocity about its own axis, w'_z.
  static double wheel_spin(const model& m, const step_record& rec) {
    return state_of(m, rec, "wheel").omega_body().z();
  }
  static double rod_spin(const model& m, const step_record& rec) {
    return state_of(m, rec, "rod").omega_body().z();
  }
};

// The torque T0 acts from 1.5 s to 4.5 s. Gravity is vertical and the spherical joint's
// reaction acts at the origin, so the energy (before the torque) and the angular momentum about
// the vertical through the pivot (outside the torque phase) are conserved. About the wheel's
// symmetry axis Euler's equation is I_zz w'_z' = n_z: the revolute joint acts at the wheel's
// centre and exerts no moment about its axis, so w'_z changes only by the applied torque:
// w'_z = T0 (t - 1.5) / I_zz during the phase and T0 * 3 / I_zz after it. The torque's power is
// T0 w'_z, so it does the work (3 T0)^2 / (2 I_zz), and the energy after the phase is
// E0 + (3 T0)^2 / (2 I_zz), constant again.
TEST(SpatialDynamics, FlywheelPendulumConservesAndSpinsUpByTheTorque) {
  const model m = load_model(examples + "/spherical_pendulum_flywheel.toml");
  const flywheel_pendulum f;
  const double t0 = m.parameters().at("T0"), i_zz = f.wheel_inertia(2, 2);
  ASSERT_EQ(t0, 0.5);
  const simulation_result r = run_gigsp(m, tight_dormand_prince(6.0, 0.01, 1e-10));
  ASSERT_TRUE(r.completed) << r.message;
  const step_record& first = r.records.front();
  const double e0 = f.energy(m, first), h0 = f.vertical_momentum(m, first);
  double h_after = 0;
  bool after_seen = false;
  double worst_energy = 0, worst_momentum = 0, worst_spin_before = 0, worst_spin_during = 0;
  double worst_spin_after = 0, worst_momentum_after = 0, worst_energy_after = 0;
  const double work = std::pow(3 * t0, 2) / (2 * i_zz);
  for (const step_record& rec : r.records) {
    const double t = rec.t, spin = flywheel_pendulum::wheel_spin(m, rec);
    if (t < 1.5 - 1e-9) {
      worst_energy = std::max(worst_energy, std::abs(f.energy(m, rec) - e0) / std::abs(e0));
      worst_momentum = std::max(worst_momentum, std::abs(f.vertical_momentum(m, rec) - h0));
      worst_spin_before = std::max(worst_spin_before, std::abs(spin));
    } else if (t > 1.5 + 1e-9 && t < 4.5 - 1e-9) {
      worst_spin_during = std::max(worst_spin_during, std::abs(spin - t0 * (t - 1.5) / i_zz));
    } else if (t > 4.5 + 1e-9) {
      if (!after_seen) h_after = f.vertical_momentum(m, rec);
      after_seen = true;
      worst_spin_after = std::max(worst_spin_after, std::abs(spin - t0 * 3 / i_zz));
      worst_momentum_after =
          std::max(worst_momentum_after, std::abs(f.vertical_momentum(m, rec) - h_after));
      worst_energy_after = std::max(worst_energy_after, std::abs(f.energy(m, rec) - e0 - work));
    }
  }
  ASSERT_TRUE(after_seen);
  EXPECT_LT(worst_energy, 1e-8);
  EXPECT_LT(worst_momentum, 1e-9);  // h0 = 0: released at rest
  EXPECT_LT(worst_spin_before, 1e-9);
  EXPECT_LT(worst_spin_during, 1e-6 * t0 * 3 / i_zz);
  EXPECT_LT(worst_spin_after, 1e-6 * t0 * 3 / i_zz);
  EXPECT_LT(worst_momentum_after, 1e-7);
  EXPECT_LT(worst_energy_after, 1e-6 * work);
  // The external torque has a vertical component: the momentum did change across the phase.
  EXPECT_GT(std::abs(h_after - h0), 1e-3);
}

// The same with the torque as a motor between rod and wheel (`reaction = "rod"`) and a smaller
// T0, so that the rod's counter-spin (I_zz 65 times smaller than the wheel's) stays moderate.
// The pair is internal: the angular momentum about the vertical through the pivot is conserved
// throughout, and the wheel still spins up by T0 * 3 / I_zz. The rod's own spin: its Euler
// equation about its axis has -T0 and no joint moment about the common axis, I_rod w'_z' = -T0.
// The motor's power is T0 (w'_z,wheel - w'_z,rod): its work over the phase is
// (3 T0)^2 / 2 (1 / I_zz + 1 / I_rod), all of it in the two spins.
TEST(SpatialDynamics, FlywheelPendulumWithAMotorConservesVerticalMomentum) {
  std::string text = read_text(examples + "/spherical_pendulum_flywheel.toml");
  const std::string frame_line = "frame = \"body\"";
  const std::size_t at = text.rfind(frame_line);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + frame_line.size(), "\nreaction = \"rod\"");
  model_options options;
  const double t0 = 0.005;
  options.overrides.push_back({"T0", t0});
  const model m = load_model_from_string(text, "flywheel_motor.toml", options);
  const flywheel_pendulum f;
  const double i_zz = f.wheel_inertia(2, 2), i_rod = f.rod_inertia(2, 2);
  const simulation_result r = run_gigsp(m, tight_dormand_prince(6.0, 0.01, 1e-10));
  ASSERT_TRUE(r.completed) << r.message;
  const step_record& first = r.records.front();
  const double e0 = f.energy(m, first), h0 = f.vertical_momentum(m, first);
  double worst_energy = 0, worst_momentum = 0, worst_wheel = 0, worst_rod = 0;
  double worst_energy_after = 0;
  const double work = std::pow(3 * t0, 2) / 2 * (1 / i_zz + 1 / i_rod);
  for (const step_record& rec : r.records) {
    const double t = rec.t;
    if (t > 4.5 + 1e-9)
      worst_energy_after = std::max(worst_energy_after, std::abs(f.energy(m, rec) - e0 - work));
    worst_momentum = std::max(worst_momentum, std::abs(f.vertical_momentum(m, rec) - h0));
    if (t < 1.5 - 1e-9)
      worst_energy = std::max(worst_energy, std::abs(f.energy(m, rec) - e0) / std::abs(e0));
    if (std::abs(t - 1.5) < 1e-9 || std::abs(t - 4.5) < 1e-9) continue;
    const double applied = std::clamp(t - 1.5, 0.0, 3.0) * t0;  // the torque's impulse so far
    worst_wheel =
        std::max(worst_wheel, std::abs(flywheel_pendulum::wheel_spin(m, rec) - applied / i_zz));
    worst_rod =
        std::max(worst_rod, std::abs(flywheel_pendulum::rod_spin(m, rec) + applied / i_rod));
  }
  EXPECT_LT(worst_energy, 1e-8);
  EXPECT_LT(worst_momentum, 1e-9);
  EXPECT_LT(worst_wheel, 1e-6 * t0 * 3 / i_zz);
  EXPECT_LT(worst_rod, 1e-6 * t0 * 3 / i_rod);
  EXPECT_LT(worst_energy_after, 1e-6 * work);
  EXPECT_NEAR(flywheel_pendulum::wheel_spin(m, r.records.back()), t0 * 3 / i_zz,
              1e-6 * t0 * 3 / i_zz);
}

// A full inertia tensor J = R D R^T (D = diag(1, 2, 3)) on a body with orientation A is the
// same physical body as its principal twin, diag(D) with orientation A R and body angular
// velocity R^T w': the two, free in one model, must keep A_full R = A_twin, and the full one
// its angular momentum A J w'.
TEST(SpatialDynamics, FullInertiaTensorMovesLikeItsPrincipalTwin) {
  const Eigen::Matrix3d rot =
      Eigen::AngleAxisd(0.6, Eigen::Vector3d(1, 1, 1).normalized()).toRotationMatrix();
  const Eigen::Matrix3d j = rot * Eigen::Vector3d(1, 2, 3).asDiagonal() * rot.transpose();
  const Eigen::Matrix3d a_full =
      Eigen::AngleAxisd(0.8, Eigen::Vector3d(0.2, -1, 0.4).normalized()).toRotationMatrix();
  const Eigen::Vector3d w_full(0.5, -1.2, 1.8);
  auto row = [&](int k) { return vec(j.row(k).transpose()); };
  const std::string text =
      "[model]\nspace = \"spatial\"\n\n[[body]]\nname = \"full\"\nmass = 1\ninertia = [" + row(0) +
      ", " + row(1) + ", " + row(2) +
      "]\nposition = [0, 0, 0]\norientation = " + vec(parameters_of(a_full)) +
      "\nangular_velocity = " + vec(w_full) +
      "\nangular_velocity_frame = \"body\"\n\n[[body]]\nname = \"twin\"\nmass = 1\n"
      "inertia = [1, 2, 3]\nposition = [5, 0, 0]\norientation = " +
      vec(parameters_of(a_full * rot)) + "\nangular_velocity = " + vec(rot.transpose() * w_full) +
      "\nangular_velocity_frame = \"body\"\n";
  const model m = load_model_from_string(text, "full_inertia.toml");
  const simulation_result r = run_gigsp(m, tight_dormand_prince(5.0, 0.1));
  ASSERT_TRUE(r.completed) << r.message;
  const Eigen::Vector3d h0 = angular_momentum(state_of(m, r.records.front(), "full"), 1, j);
  double worst_twin = 0, worst_momentum = 0;
  for (const step_record& rec : r.records) {
    const body_state full = state_of(m, rec, "full"), twin = state_of(m, rec, "twin");
    worst_twin =
        std::max(worst_twin, (full.rotation() * rot - twin.rotation()).cwiseAbs().maxCoeff());
    worst_momentum =
        std::max(worst_momentum, (angular_momentum(full, 1, j) - h0).norm() / h0.norm());
  }
  EXPECT_LT(worst_twin, 1e-9);
  EXPECT_LT(worst_momentum, 1e-9);
}

// The heavy symmetric top on a spherical joint at its tip, in steady precession (Lagrange top):
// with the symmetry axis at theta from the upward vertical, spin w3 about it and I1' = I1 +
// m l^2 about the pivot, theta stays constant when the precession rate phi' solves
//   I1' cos(theta) phi'^2 - I3 w3 phi' + m g l = 0
// (from Lagrange's equation in theta; e.g. Goldstein, Classical Mechanics, section 5.7). The
// axis then turns uniformly about the vertical: k(t) = (sin th cos phi' t, sin th sin phi' t,
// cos th), and w3 stays constant.
struct heavy_top {
  double m = 1, l = 0.2, i1 = 0.01, i3 = 0.015, g = 9.81, theta = 0.5, w3 = 60;
  double phi_dot = 0;
  std::string text;

  heavy_top() {
    const double i1_pivot = i1 + m * l * l;
    const double a = i1_pivot * std::cos(theta), b = -i3 * w3, c = m * g * l;
    phi_dot = (-b - std::sqrt(b * b - 4 * a * c)) / (2 * a);  // the slow precession
    const Eigen::Matrix3d a0 =
        Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitY()).toRotationMatrix();
    const Eigen::Vector3d k0 = a0.col(2);
    const Eigen::Vector3d w0 =
        phi_dot * Eigen::Vector3d::UnitZ() + (w3 - phi_dot * std::cos(theta)) * k0;
    text = "[model]\nspace = \"spatial\"\ngravity = [0, 0, " + num(-g) +
           "]\n\n[[body]]\nname = \"top\"\nmass = " + num(m) + "\ninertia = [" + num(i1) + ", " +
           num(i1) + ", " + num(i3) + "]\nposition = " + vec(l * k0) +
           "\norientation = " + vec(parameters_of(a0)) + "\nvelocity = " + vec(w0.cross(l * k0)) +
           "\nangular_velocity = " + vec(w0) +
           "\n\n[[joint]]\nname = \"tip\"\ntype = \"spherical\"\nbody_i = \"ground\"\nbody_j = "
           "\"top\"\npoint_j = [0, 0, " +
           num(-l) + "]\n";
  }
  // The largest departures of the symmetry axis from k(t) and of w'_z from w3 over a run.
  std::pair<double, double> departures(const model& mdl, const simulation_result& r) const {
    double worst_axis = 0, worst_spin = 0;
    for (const step_record& rec : r.records) {
      const body_state s = state_of(mdl, rec, "top");
      const double phi = phi_dot * rec.t;
      const Eigen::Vector3d k(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                              std::cos(theta));
      worst_axis = std::max(worst_axis, (s.rotation().col(2) - k).norm());
      worst_spin = std::max(worst_spin, std::abs(s.omega_body().z() - w3));
    }
    return {worst_axis, worst_spin};
  }
};

TEST(SpatialDynamics, HeavyTopPrecessesSteadily) {
  const heavy_top top;
  const model mdl = load_model_from_string(top.text, "heavy_top.toml");
  const simulation_result r = run_gigsp(mdl, tight_dormand_prince(2.0, 0.05, 1e-11));
  ASSERT_TRUE(r.completed) << r.message;
  const auto [worst_axis, worst_spin] = top.departures(mdl, r);
  EXPECT_GT(top.phi_dot * 2.0, 1.0);  // it precessed through a good angle
  EXPECT_LT(worst_axis, 1e-7);
  EXPECT_LT(worst_spin, 1e-7 * top.w3);
}

// A spatial model is a normal kinevo model: every direct solver (full formulation) and every
// formulation that takes Dormand-Prince (with GIGSP) follow the same steady precession. The
// output interval 0.05 s is also Dormand-Prince's first step: at 3 rad of spin the Newton
// recovery of the dependent coordinates in partitioning, hybrid and qtz-state fails inside that
// first trial step, which must reject the step and shrink it, not end the run.
// (`reuse`, RK4 only, is left out: first-order in h k, it diverges on this fast top at
// h = 1e-3 with or without Baumgarte.)
TEST(SpatialDynamics, HeavyTopWithEverySolverAndFormulation) {
  const heavy_top top;
  const model mdl = load_model_from_string(top.text, "heavy_top.toml");
  struct setup {
    std::string solver;
    formulation_kind formulation;
  };
  std::vector<setup> setups;
  for (const std::string& name : direct_solver_names())
    setups.push_back({name, formulation_kind::full});
  for (const formulation_kind f : {formulation_kind::partitioning, formulation_kind::projection,
                                   formulation_kind::hybrid, formulation_kind::qtz_reduced,
                                   formulation_kind::qtz_orthogonal, formulation_kind::qtz_state})
    setups.push_back({"gigsp", f});
  for (const setup& s : setups) {
    simulation_options o = tight_dormand_prince(1.0, 0.05, 1e-10);
    o.formulation.kind = s.formulation;
    auto solver = make_solver(s.solver);
    const simulation_result r = simulate(mdl, *solver, o);
    const std::string what = s.solver + ", " + to_string(s.formulation);
    ASSERT_TRUE(r.completed) << what << ": " << r.message;
    const auto [worst_axis, worst_spin] = top.departures(mdl, r);
    EXPECT_LT(worst_axis, 1e-7) << what;
    EXPECT_LT(worst_spin, 1e-7 * top.w3) << what;
  }
}

// A particle on a distance joint (a spherical pendulum) as a conical pendulum: at theta from
// the downward vertical, with speed for omega^2 = g / (L cos theta), it circles uniformly at
// constant height.
TEST(SpatialDynamics, ParticleConicalPendulumCirclesUniformly) {
  const double len = 1.2, theta = 0.6, g = 9.81;
  const double omega = std::sqrt(g / (len * std::cos(theta))), radius = len * std::sin(theta);
  const std::string text =
      "[model]\nspace = \"spatial\"\ngravity = [0, 0, " + num(-g) +
      "]\n\n[[particle]]\nname = \"p\"\nmass = 0.7\nposition = [" + num(radius) + ", 0, " +
      num(-len * std::cos(theta)) + "]\nvelocity = [0, " + num(omega * radius) +
      ", 0]\n\n[[joint]]\nname = \"rod\"\ntype = \"distance\"\nbody_i = \"ground\"\nbody_j = "
      "\"p\"\nlength = " +
      num(len) + "\n";
  const model m = load_model_from_string(text, "conical.toml");
  const simulation_result r = run_gigsp(m, tight_dormand_prince(3.0, 0.05, 1e-11));
  ASSERT_TRUE(r.completed) << r.message;
  double worst = 0;
  for (const step_record& rec : r.records) {
    const Eigen::Vector3d expected(radius * std::cos(omega * rec.t),
                                   radius * std::sin(omega * rec.t), -len * std::cos(theta));
    worst = std::max(worst, (rec.q.head<3>() - expected).norm());
  }
  ASSERT_EQ(m.coordinate_names()[0], "p_x");
  EXPECT_LT(worst, 1e-8);
}

// Two free bodies and their momenta about the origin, sum of m v and of m r x v + A J w'.
struct two_bodies {
  double m1 = 1.3, m2 = 0.8;
  Eigen::Matrix3d j1 = Eigen::Vector3d(0.2, 0.3, 0.4).asDiagonal();
  Eigen::Matrix3d j2 = Eigen::Vector3d(0.5, 0.1, 0.45).asDiagonal();
  std::string text(const std::string& extra) const {
    return "[model]\nspace = \"spatial\"\n\n[[body]]\nname = \"b1\"\nmass = " + num(m1) +
           "\ninertia = [0.2, 0.3, 0.4]\nposition = [0.1, 0.2, 0.3]\nvelocity = [0.3, -0.1, 0.2]\n"
           "rotation_axis = [1, 1, 0]\nrotation_angle = 0.4\nangular_velocity = [0.2, 0.5, -0.3]"
           "\n\n[[body]]\nname = \"b2\"\nmass = " +
           num(m2) +
           "\ninertia = [0.5, 0.1, 0.45]\nposition = [1, -0.5, 0.2]\nvelocity = [-0.2, 0, 0.1]\n"
           "rotation_axis = [0, 1, 2]\nrotation_angle = -0.7\nangular_velocity = [1, 0, 0.4]\n\n" +
           extra;
  }
  Eigen::Vector3d linear(const model& m, const step_record& rec) const {
    return m1 * state_of(m, rec, "b1").v + m2 * state_of(m, rec, "b2").v;
  }
  Eigen::Vector3d angular(const model& m, const step_record& rec) const {
    return angular_momentum(state_of(m, rec, "b1"), m1, j1) +
           angular_momentum(state_of(m, rec, "b2"), m2, j2);
  }
};

// How far the momenta of two bodies stray over a run (relative to their size).
std::pair<double, double> momentum_drift(const two_bodies& b, const model& m,
                                         const simulation_result& r) {
  const Eigen::Vector3d p0 = b.linear(m, r.records.front()), h0 = b.angular(m, r.records.front());
  double worst_p = 0, worst_h = 0;
  for (const step_record& rec : r.records) {
    worst_p = std::max(worst_p, (b.linear(m, rec) - p0).norm() / p0.norm());
    worst_h = std::max(worst_h, (b.angular(m, rec) - h0).norm() / h0.norm());
  }
  return {worst_p, worst_h};
}

// An applied force and torque with `reaction`: -F at the same global point and -n on the other
// body, so the pair changes neither the total linear nor the total angular momentum. Body-frame
// components that vary in time make the test general.
TEST(SpatialDynamics, AppliedPairWithReactionKeepsTotalMomentum) {
  const two_bodies b;
  const model m = load_model_from_string(
      b.text("[[force]]\ntype = \"applied\"\nbody = \"b1\"\npoint = [0.1, 0.2, -0.3]\n"
             "force = [\"0.5*cos(t)\", 0.2, -0.1]\ntorque = [0, 0.3, \"0.1*t\"]\n"
             "frame = \"body\"\nreaction = \"b2\"\n"),
      "pair.toml");
  const simulation_result r = run_gigsp(m, tight_dormand_prince(4.0, 0.1));
  ASSERT_TRUE(r.completed) << r.message;
  const auto [worst_p, worst_h] = momentum_drift(b, m, r);
  EXPECT_LT(worst_p, 1e-10);
  EXPECT_LT(worst_h, 1e-9);
  // The pair did act: b1's momentum changed.
  EXPECT_GT((state_of(m, r.records.back(), "b1").v - state_of(m, r.records.front(), "b1").v).norm(),
            0.1);
}

// A spring-damper between points of two free bodies: central forces along the line between the
// points, so both momenta are kept; undamped, the model's energy (kinetic plus spring) too.
TEST(SpatialDynamics, SpringDamperBetweenBodiesKeepsMomentumAndEnergy) {
  const two_bodies b;
  for (const double damping : {0.0, 0.4}) {
    const model m = load_model_from_string(
        b.text("[[force]]\ntype = \"spring_damper\"\nbody_i = \"b1\"\nbody_j = \"b2\"\n"
               "point_i = [0.2, 0, 0.1]\npoint_j = [0, -0.3, 0]\nstiffness = 20\ndamping = " +
               num(damping) + "\nrest_length = 0.5\n"),
        "spring_pair.toml");
    const simulation_result r = run_gigsp(m, tight_dormand_prince(4.0, 0.1));
    ASSERT_TRUE(r.completed) << r.message;
    const auto [worst_p, worst_h] = momentum_drift(b, m, r);
    EXPECT_LT(worst_p, 1e-10) << damping;
    EXPECT_LT(worst_h, 1e-9) << damping;
    // Kinetic plus spring energy, computed here: kept when undamped, falling when damped.
    const auto energy = [&](const step_record& rec) {
      const body_state s1 = state_of(m, rec, "b1"), s2 = state_of(m, rec, "b2");
      const Eigen::Vector3d d = s2.r + s2.rotation() * Eigen::Vector3d(0, -0.3, 0) - s1.r -
                                s1.rotation() * Eigen::Vector3d(0.2, 0, 0.1);
      return kinetic_energy(s1, b.m1, b.j1) + kinetic_energy(s2, b.m2, b.j2) +
             0.5 * 20 * std::pow(d.norm() - 0.5, 2);
    };
    const double e0 = energy(r.records.front());
    double worst_e = 0, previous = e0;
    bool falling = true;
    for (const step_record& rec : r.records) {
      const double e = energy(rec);
      worst_e = std::max(worst_e, std::abs(e - e0) / e0);
      falling = falling && e <= previous + 1e-12;
      previous = e;
    }
    if (damping == 0) {
      EXPECT_TRUE(m.has_energy());
      EXPECT_LT(worst_e, 1e-9);
      EXPECT_LT(r.max_energy_change, 1e-9 * std::abs(r.initial_energy));
      EXPECT_NEAR(r.initial_energy, e0, 1e-12 * e0);  // the model's energy is the same sum
    } else {
      EXPECT_TRUE(falling);
      EXPECT_LT(previous, 0.9 * e0);
    }
  }
}

}  // namespace
}  // namespace kinevo::mechanics
