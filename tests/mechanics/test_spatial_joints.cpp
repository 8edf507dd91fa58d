// Spatial joints and forces one at a time (`space = "spatial"`): for each joint type a body on
// the ground, whose rank analysis gives the joint's degrees of freedom, whose initial state is
// accepted, and whose motion keeps the joint's geometric meaning (the point at the pivot, the
// axis parallel, the slide along the axis by the closed form of uniform acceleration, a driven
// joint angle read back from the Euler parameters, also from explicit references and along a
// chain of two driven joints); a spring-damper oscillating at sqrt(k/m); gravity sections;
// applied forces and torques in the body and the global frame; and bad input refused with the
// file, line and field. Geometry is computed here with Eigen (Haug, Computer-Aided Kinematics and
// Dynamics of Mechanical Systems, section 6.3: A = E G^T), not with mechanics/euler_parameters.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/kinematics/rank_analysis.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"
#include "spatial_test_support.hpp"

// The test body's numbers are short names at namespace scope (mass, g, c, h, as in Haug): a
// namespace of their own keeps them from the other files of a unity batch.
namespace kinevo::mechanics::spatial_joints_test {
namespace {

using Eigen::Vector3d;
using Eigen::Vector4d;
using spatial_test::e_matrix;
using spatial_test::g_matrix;
using spatial_test::num;
using spatial_test::vec;

Eigen::Matrix3d rotation(const Vector4d& p) {
  return e_matrix(p) * g_matrix(p).transpose();
}
Vector4d euler_parameters(const Vector3d& axis, double angle) {
  Vector4d p;
  p << std::cos(angle / 2), std::sin(angle / 2) * axis.normalized();
  return p;
}

struct body_state {
  double t = 0;
  Vector3d r, v;
  Vector4d p, p_dot;
  Eigen::Matrix3d a() const { return rotation(p); }
  Vector3d omega_body() const { return 2.0 * g_matrix(p) * p_dot; }
};

body_state state_of(const model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                    const std::string& body) {
  body_state s;
  const auto& names = m.coordinate_names();
  auto at = [&](const std::string& n) {
    const auto it = std::find(names.begin(), names.end(), n);
    EXPECT_NE(it, names.end()) << n;
    return static_cast<int>(it - names.begin());
  };
  for (int k = 0; k < 3; ++k) {
    const int i = at(body + "_" + "xyz"[k]);
    s.r[k] = q[i];
    s.v[k] = qd[i];
  }
  for (int k = 0; k < 4; ++k) {
    const int i = at(body + "_e" + std::to_string(k));
    s.p[k] = q[i];
    s.p_dot[k] = qd[i];
  }
  return s;
}

// The test body: three unequal principal moments, a general orientation, a joint point away from
// the centre of mass; pivot c on the ground.
const double mass = 1.5;
const double g = 9.81;
const Vector3d gravity(0, 0, -g);
const Vector4d p0 = euler_parameters(Vector3d(1, -2, 0.5), 0.9);
const Eigen::Matrix3d a0 = rotation(p0);
const Vector3d s_body(0.3, -0.1, 0.4);              // the joint point on the body (body frame)
const Vector3d c(0.2, 0.1, 1.0);                    // the joint point on the ground
const Vector3d h = Vector3d(1, 0, 1).normalized();  // joint axis (global)

std::string model_text(const Vector3d& r0, const Vector3d& v0, const Vector3d& w0,
                       const std::string& joints, const Vector3d& g_vector = gravity) {
  return "[model]\nname = \"joint test\"\nspace = \"spatial\"\ngravity = " + vec(g_vector) +
         "\n\n[[body]]\nname = \"b\"\nmass = " + num(mass) +
         "\ninertia = [0.1, 0.2, 0.3]\nposition = " + vec(r0) + "\norientation = " + vec(p0) +
         "\nvelocity = " + vec(v0) + "\nangular_velocity = " + vec(w0) + "\n\n" + joints;
}

// A joint test: the model, the degrees of freedom and drivers expected, and the largest
// departure from the joint's geometric meaning at one state.
struct joint_case {
  std::string text;
  int dof = 0;
  bool determined = false;
  bool driven = false;  // a driver does work: no energy check
  std::function<double(const body_state&)> violation;
};

void check_joint(const joint_case& j) {
  const model m = load_model_from_string(j.text, "joint.toml");  // the initial state is accepted
  const rank_report rank = analyse_rank(m, m.initial_positions(), 0.0);
  EXPECT_EQ(rank.dof, j.dof) << rank.text();
  EXPECT_TRUE(rank.redundant.empty()) << rank.text();
  EXPECT_EQ(rank.determined, j.determined) << rank.text();
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 2.0;
  o.dt = 0.05;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  double worst = 0, worst_energy = 0;
  const double e0 = r.records.front().energy;
  for (const step_record& rec : r.records) {
    body_state s = state_of(m, rec.q, rec.qd, "b");
    s.t = rec.t;
    worst = std::max(worst, j.violation(s));
    if (!j.driven) worst_energy = std::max(worst_energy, std::abs(rec.energy - e0));
  }
  EXPECT_LT(worst, 1e-8);
  // Ideal joints do no work: only gravity changes the kinetic energy (drivers do work).
  if (!j.driven) {
    EXPECT_LT(worst_energy, 1e-8 * std::max(1.0, std::abs(e0)));
  }
  // It moved.
  const body_state end = state_of(m, r.records.back().q, r.records.back().qd, "b");
  EXPECT_GT((end.r - state_of(m, r.records.front().q, r.records.front().qd, "b").r).norm(), 1e-2);
}

// The joint point on the body, global.
Vector3d body_point(const body_state& s) {
  return s.r + s.a() * s_body;
}

const std::string ground_to_b =
    "[[joint]]\nname = \"j\"\nbody_i = \"ground\"\nbody_j = \"b\"\npoint_i = " + vec(c) +
    "\npoint_j = " + vec(s_body) + "\n";

TEST(SpatialJoints, SphericalKeepsThePointAtThePivot) {
  const Vector3d r0 = c - a0 * s_body, w0(0.5, -1, 2);
  joint_case j;
  j.text = model_text(r0, w0.cross(r0 - c), w0, ground_to_b + "type = \"spherical\"\n");
  j.dof = 3;
  j.violation = [](const body_state& s) { return (body_point(s) - c).norm(); };
  check_joint(j);
}

std::string axes(const Vector3d& axis_i, const Vector3d& axis_j) {
  return "axis_i = " + vec(axis_i) + "\naxis_j = " + vec(axis_j) + "\n";
}

TEST(SpatialJoints, RevoluteKeepsThePointAndTheAxis) {
  const Vector3d r0 = c - a0 * s_body, w0 = 2.0 * h, h_body = a0.transpose() * h;
  joint_case j;
  j.text =
      model_text(r0, w0.cross(r0 - c), w0, ground_to_b + "type = \"revolute\"\n" + axes(h, h_body));
  j.dof = 1;
  j.violation = [h_body](const body_state& s) {
    return (body_point(s) - c).norm() + (s.a() * h_body - h).norm();
  };
  check_joint(j);
}

// Cylindrical: the constraint forces are normal to the axis, so the slide along it is that of
// uniform acceleration g.h; the body also turns about the axis.
TEST(SpatialJoints, CylindricalSlidesAlongTheAxisByTheClosedForm) {
  const Vector3d r0 = c - a0 * s_body, w0 = 1.5 * h, h_body = a0.transpose() * h;
  const double u = 0.4, g_axis = gravity.dot(h);
  joint_case j;
  j.text = model_text(r0, u * h + w0.cross(r0 - c), w0,
                      ground_to_b + "type = \"cylindrical\"\n" + axes(h, h_body));
  j.dof = 2;
  j.violation = [=](const body_state& s) {
    const double slide = u * s.t + g_axis * s.t * s.t / 2;
    return (body_point(s) - c).cross(h).norm() + (s.a() * h_body - h).norm() +
           std::abs((s.r - r0).dot(h) - slide);
  };
  check_joint(j);
}

TEST(SpatialJoints, TranslationalSlidesWithoutTurning) {
  const Vector3d r0 = c - a0 * s_body, h_body = a0.transpose() * h;
  const double u = 0.4, g_axis = gravity.dot(h);
  joint_case j;
  j.text = model_text(r0, u * h, Vector3d::Zero(),
                      ground_to_b + "type = \"translational\"\n" + axes(h, h_body));
  j.dof = 1;
  j.violation = [=](const body_state& s) {
    const double slide = u * s.t + g_axis * s.t * s.t / 2;
    return (s.r - r0 - slide * h).norm() + (s.a() - a0).cwiseAbs().maxCoeff();
  };
  check_joint(j);
}

// Universal: the point at the pivot and the two cross axes perpendicular; the body turns about
// both.
TEST(SpatialJoints, UniversalKeepsTheCrossPerpendicular) {
  const Vector3d h_i = Vector3d::UnitX(), h_j_global(0, std::cos(0.3), std::sin(0.3));
  const Vector3d h_j = a0.transpose() * h_j_global;
  const Vector3d r0 = c - a0 * s_body, w0 = 1.2 * h_i + 0.7 * h_j_global;
  joint_case j;
  j.text =
      model_text(r0, w0.cross(r0 - c), w0, ground_to_b + "type = \"universal\"\n" + axes(h_i, h_j));
  j.dof = 2;
  j.violation = [=](const body_state& s) {
    return (body_point(s) - c).norm() + std::abs(h_i.dot(s.a() * h_j));
  };
  check_joint(j);
}

TEST(SpatialJoints, DistanceKeepsTheLength) {
  const double length = 0.8;
  const Vector3d u = Vector3d(1, 1, -1).normalized(), w0(0.5, -1, 2);
  const Vector3d r0 = c + length * u - a0 * s_body;
  const Vector3d point_velocity = 0.7 * u.cross(Vector3d::UnitZ());  // normal to the rod
  joint_case j;
  j.text = model_text(r0, point_velocity - w0.cross(a0 * s_body), w0,
                      ground_to_b + "type = \"distance\"\nlength = " + num(length) + "\n");
  j.dof = 5;
  j.violation = [=](const body_state& s) { return std::abs((body_point(s) - c).norm() - length); };
  check_joint(j);
}

TEST(SpatialJoints, PointOnPlaneStaysOnThePlane) {
  const double offset = 0.1;
  const Vector3d n = Vector3d(0, 1, 2).normalized(), w0(0.5, -1, 2);
  const Vector3d r0 = c + offset * n - a0 * s_body;
  const Vector3d point_velocity = 0.3 * n.cross(Vector3d::UnitX());  // in the plane
  joint_case j;
  j.text = model_text(r0, point_velocity - w0.cross(a0 * s_body), w0,
                      ground_to_b + "type = \"point_on_plane\"\nnormal_i = [0, 1, 2]\noffset = " +
                          num(offset) + "\n");
  j.dof = 5;
  j.violation = [=](const body_state& s) { return std::abs(n.dot(body_point(s) - c) - offset); };
  check_joint(j);
}

// The driven angle: A(t) A0^T is the rotation about the axis by value(t) (right-handed about
// axis_i, zero at the initial configuration).
TEST(SpatialJoints, DrivenRevoluteAngleFollowsItsValue) {
  const auto value = [](double t) { return 0.8 * t + 0.3 * std::sin(2 * t); };
  const Vector3d r0 = c - a0 * s_body, w0 = (0.8 + 0.6) * h, h_body = a0.transpose() * h;
  joint_case j;
  j.text = model_text(r0, w0.cross(r0 - c), w0,
                      ground_to_b + "type = \"revolute\"\n" + axes(h, h_body) +
                          "\n[[joint]]\nname = \"drive\"\ntype = \"driver\"\njoint = \"j\"\n"
                          "value = \"0.8*t + 0.3*sin(2*t)\"\n");
  j.dof = 1;
  j.determined = true;
  j.driven = true;
  j.violation = [=](const body_state& s) {
    const Eigen::Matrix3d expected = Eigen::AngleAxisd(value(s.t), h).toRotationMatrix();
    return (s.a() * a0.transpose() - expected).cwiseAbs().maxCoeff() + (body_point(s) - c).norm();
  };
  check_joint(j);
}

TEST(SpatialJoints, DrivenCoordinateFollowsItsValue) {
  const Vector3d r0 = c - a0 * s_body, h_body = a0.transpose() * h;
  // x = x0 + 0.2 sin(3 t) along the translational axis h: the slide is (x - x0) / h_x.
  joint_case j;
  j.text = model_text(r0, (0.6 / h.x()) * h, Vector3d::Zero(),
                      ground_to_b + "type = \"translational\"\n" + axes(h, h_body) +
                          "\n[[joint]]\nname = \"drive\"\ntype = \"driver\"\ncoordinate = "
                          "\"b_x\"\nvalue = \"" +
                          num(r0.x()) + " + 0.2*sin(3*t)\"\n");
  j.dof = 1;
  j.determined = true;
  j.driven = true;
  j.violation = [=](const body_state& s) {
    const Vector3d expected = r0 + (0.2 * std::sin(3 * s.t) / h.x()) * h;
    return (s.r - expected).norm() + (s.a() - a0).cwiseAbs().maxCoeff();
  };
  check_joint(j);
}

// With reference_i and reference_j the driven angle is measured from them: here they start
// theta0 apart, so the driver's value starts at theta0, and the body turns by value(t) - theta0.
// On a cylindrical joint the driver only turns the body (its reaction is a pure torque about
// the axis): the slide along the axis keeps the closed form of uniform acceleration.
TEST(SpatialJoints, DrivenCylindricalAngleFromItsReferences) {
  const double theta0 = 0.4, u = 0.3, g_axis = gravity.dot(h);
  const auto value = [=](double t) { return theta0 + 0.5 * t; };
  const Vector3d f_i = h.cross(Vector3d::UnitY()).normalized();
  const Vector3d f_j = a0.transpose() * Eigen::AngleAxisd(theta0, h).toRotationMatrix() * f_i;
  const Vector3d r0 = c - a0 * s_body, w0 = 0.5 * h, h_body = a0.transpose() * h;
  joint_case j;
  j.text = model_text(r0, u * h + w0.cross(r0 - c), w0,
                      ground_to_b + "type = \"cylindrical\"\n" + axes(h, h_body) +
                          "reference_i = " + vec(f_i) + "\nreference_j = " + vec(f_j) +
                          "\n\n[[joint]]\nname = \"drive\"\ntype = \"driver\"\njoint = \"j\"\n"
                          "value = \"" +
                          num(theta0) + " + 0.5*t\"\n");
  j.dof = 2;
  j.determined = false;  // the slide is free
  j.driven = true;
  j.violation = [=](const body_state& s) {
    const Eigen::Matrix3d turned = Eigen::AngleAxisd(value(s.t) - theta0, h).toRotationMatrix();
    const double slide = u * s.t + g_axis * s.t * s.t / 2;
    return (s.a() * a0.transpose() - turned).cwiseAbs().maxCoeff() +
           std::abs((s.r - r0).dot(h) - slide) + (body_point(s) - c).cross(h).norm();
  };
  check_joint(j);
}

// Two driven revolute joints in a chain: a turns about the global z axis through c by
// v_a(t) = 0.7 t; b turns relative to a about a's body x axis by v_b(t) = 0.5 sin(2 t). Then
// A_a(t) = Rz(v_a) A_a0 and A_b(t) = A_a(t) Rx(v_b) A_a0^T A_b0, and b's joint point stays on a's.
struct driven_chain {
  Eigen::Matrix3d a_a0 = a0, a_b0;
  Vector4d p_b0 = euler_parameters(Vector3d(0.3, 0.4, -1), 1.3);
  Vector3d s_a{0.3, -0.1, 0.4}, hinge_a{0.5, 0, 0}, s_b{-0.2, 0.1, 0};  // body frames
  std::string text;

  driven_chain() {
    a_b0 = rotation(p_b0);
    const Vector3d r_a0 = c - a_a0 * s_a;
    const Vector3d p_hinge0 = r_a0 + a_a0 * hinge_a, r_b0 = p_hinge0 - a_b0 * s_b;
    const Vector3d w_a = 0.7 * Vector3d::UnitZ(), w_b = w_a + 1.0 * (a_a0 * Vector3d::UnitX());
    const Vector3d v_a = w_a.cross(r_a0 - c);
    const Vector3d v_b = v_a + w_a.cross(p_hinge0 - r_a0) + w_b.cross(r_b0 - p_hinge0);
    auto body = [](const std::string& name, const Vector3d& r, const Vector4d& p, const Vector3d& v,
                   const Vector3d& w) {
      return "[[body]]\nname = \"" + name +
             "\"\nmass = 1\ninertia = [0.1, 0.2, 0.3]\nposition = " + vec(r) +
             "\norientation = " + vec(p) + "\nvelocity = " + vec(v) +
             "\nangular_velocity = " + vec(w) + "\n\n";
    };
    text = "[model]\nspace = \"spatial\"\ngravity = [0, 0, -9.81]\n\n" +
           body("a", r_a0, p0, v_a, w_a) + body("b", r_b0, p_b0, v_b, w_b) +
           "[[joint]]\nname = \"ja\"\ntype = \"revolute\"\nbody_i = \"ground\"\nbody_j = \"a\"\n"
           "point_i = " +
           vec(c) + "\npoint_j = " + vec(s_a) +
           "\naxis_i = [0, 0, 1]\naxis_j = " + vec(a_a0.transpose() * Vector3d::UnitZ()) +
           "\n\n[[joint]]\nname = \"jb\"\ntype = \"revolute\"\nbody_i = \"a\"\nbody_j = \"b\"\n"
           "point_i = " +
           vec(hinge_a) + "\npoint_j = " + vec(s_b) +
           "\naxis_i = [1, 0, 0]\naxis_j = " + vec(a_b0.transpose() * a_a0 * Vector3d::UnitX()) +
           "\n\n[[joint]]\nname = \"da\"\ntype = \"driver\"\njoint = \"ja\"\nvalue = \"0.7*t\"\n"
           "\n[[joint]]\nname = \"db\"\ntype = \"driver\"\njoint = \"jb\"\nvalue = "
           "\"0.5*sin(2*t)\"\n";
  }
  // The largest departure from the closed form at one state.
  double departure(const model& m, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                   double t) const {
    const body_state a = state_of(m, q, qd, "a"), b = state_of(m, q, qd, "b");
    const Eigen::Matrix3d expected_a =
        Eigen::AngleAxisd(0.7 * t, Vector3d::UnitZ()).toRotationMatrix() * a_a0;
    const Eigen::Matrix3d expected_b =
        expected_a *
        Eigen::AngleAxisd(0.5 * std::sin(2 * t), Vector3d::UnitX()).toRotationMatrix() *
        a_a0.transpose() * a_b0;
    // Angular velocities: w_a = 0.7 z, w_b = w_a + v_b'(t) (A_a x).
    const Vector3d w_a = 0.7 * Vector3d::UnitZ();
    const Vector3d w_b = w_a + std::cos(2 * t) * (expected_a * Vector3d::UnitX());
    return std::max(
        {(a.a() - expected_a).cwiseAbs().maxCoeff(), (b.a() - expected_b).cwiseAbs().maxCoeff(),
         (a.r + a.a() * hinge_a - b.r - b.a() * s_b).norm(), (a.r + a.a() * s_a - c).norm(),
         (a.a() * a.omega_body() - w_a).norm(), (b.a() * b.omega_body() - w_b).norm()});
  }
};

TEST(SpatialJoints, DrivenRevoluteChainFollowsItsRelativeAngles) {
  const driven_chain chain;
  const model m = load_model_from_string(chain.text, "chain.toml");
  const rank_report rank = analyse_rank(m, m.initial_positions(), 0.0);
  EXPECT_EQ(rank.dof, 2) << rank.text();
  EXPECT_TRUE(rank.determined) << rank.text();
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 2.0;
  o.dt = 0.05;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  double worst = 0;
  for (const step_record& rec : r.records)
    worst = std::max(worst, chain.departure(m, rec.q, rec.qd, rec.t));
  EXPECT_LT(worst, 1e-8);
}

// The same chain by kinematic analysis (Newton-Raphson on Phi(q, t) = 0 with the normalisation
// rows, Haug, sections 4.3-4.5): positions and velocities follow the closed form to round-off.
TEST(SpatialJoints, KinematicAnalysisOfTheDrivenChain) {
  const driven_chain chain;
  const model m = load_model_from_string(chain.text, "chain.toml");
  kinematic_analysis_options o;
  o.t_end = 2.0;
  o.dt = 0.05;
  const kinematic_analysis_result r = analyse_kinematics(m, o);
  ASSERT_TRUE(r.completed) << r.message;
  ASSERT_EQ(r.rows.size(), 41u);
  double worst = 0;
  for (const kinematic_step& k : r.rows)
    worst = std::max(worst, chain.departure(m, k.q, k.qd, k.t));
  EXPECT_LT(worst, 1e-9);
}

// A [[force]] gravity section adds to [model] gravity: a free body falls with their sum, and the
// model's energy (both potentials) is kept.
TEST(SpatialJoints, GravityForceSectionAddsToModelGravity) {
  const Vector3d v0(0.3, 0.2, 1.0), w0(0.5, -1, 2), g_force(0, -2, 0);
  const model m = load_model_from_string(
      model_text(c, v0, w0, "[[force]]\ntype = \"gravity\"\ng = " + vec(g_force) + "\n"),
      "gravity.toml");
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 1.0;
  o.dt = 0.05;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  double worst = 0;
  for (const step_record& rec : r.records) {
    const double t = rec.t;
    worst = std::max(
        worst, (state_of(m, rec.q, rec.qd, "b").r - (c + v0 * t + (gravity + g_force) * t * t / 2))
                   .norm());
  }
  EXPECT_LT(worst, 1e-10);
  EXPECT_TRUE(m.has_energy());
  EXPECT_LT(r.max_energy_change, 1e-9 * std::abs(r.initial_energy));
}

// Each joint between two free bodies, without gravity: the joint's reactions are internal, so
// the total linear and angular momentum and the energy are kept, and so is the joint's meaning
// in relative terms (body 1 carries the axis, the reference and the plane's normal).
TEST(SpatialJoints, JointsBetweenTwoFreeBodiesKeepMomentumAndTheirMeaning) {
  const double m1 = 1.2, m2 = 0.7;
  const Eigen::Matrix3d j1 = Vector3d(0.1, 0.2, 0.3).asDiagonal();
  const Eigen::Matrix3d j2 = Vector3d(0.25, 0.15, 0.05).asDiagonal();
  const Vector4d p1 = p0, p2 = euler_parameters(Vector3d(0.3, 0.4, -1), 1.3);
  const Eigen::Matrix3d a1 = rotation(p1), a2 = rotation(p2);
  const Vector3d r1(0, 0, 0), r2(0.6, -0.3, 0.2), point(0.3, 0.1, 0.4);
  const Vector3d w1(0.4, -0.3, 0.8), v1(0.2, 0.1, -0.3);
  const Vector3d n = Vector3d(1, 2, -1).normalized(), cross_j = n.cross(h).normalized();
  const double length = 0.5, offset = 0.3;

  struct pair_case {
    std::string type, extra;
    Vector3d point_j;     // P2 - P1 at the start, global
    Vector3d w_relative;  // w2 - w1
    Vector3d v_relative;  // velocity of P2 minus that of the point of body 1 at P2
    std::function<double(const body_state&, const body_state&)> violation;
  };
  const Vector3d s1 = a1.transpose() * (point - r1);
  auto p_1 = [&](const body_state& b) { return Vector3d(b.r + b.a() * s1); };
  const Vector3d h1 = a1.transpose() * h, h2 = a2.transpose() * h, n1 = a1.transpose() * n;
  const Vector3d cross_j2 = a2.transpose() * cross_j;
  const Eigen::Matrix3d relative0 = a1.transpose() * a2;
  std::vector<pair_case> cases;
  // P2 of each case is point + point_j; s2 its body-2 coordinates (set below per case).
  cases.push_back(
      {"spherical", "", Vector3d::Zero(), Vector3d(0.5, -0.2, 1.1), Vector3d::Zero(), nullptr});
  cases.push_back({"revolute", axes(h1, h2), Vector3d::Zero(), 1.5 * h, Vector3d::Zero(), nullptr});
  cases.push_back({"cylindrical", axes(h1, h2), Vector3d::Zero(), 1.5 * h, 0.4 * h, nullptr});
  cases.push_back(
      {"translational", axes(h1, h2), Vector3d::Zero(), Vector3d::Zero(), 0.4 * h, nullptr});
  cases.push_back({"universal", axes(h1, cross_j2), Vector3d::Zero(), 1.2 * h + 0.7 * cross_j,
                   Vector3d::Zero(), nullptr});
  cases.push_back({"distance", "length = " + num(length) + "\n", length * n,
                   Vector3d(0.5, -0.2, 1.1), 0.3 * cross_j, nullptr});
  cases.push_back({"point_on_plane", "normal_i = " + vec(n1) + "\noffset = " + num(offset) + "\n",
                   offset * n, Vector3d(0.5, -0.2, 1.1), 0.3 * cross_j, nullptr});
  for (pair_case& k : cases) {
    const Vector3d p2_start = point + k.point_j;
    const Vector3d s2 = a2.transpose() * (p2_start - r2);
    auto p_2 = [=](const body_state& b) { return Vector3d(b.r + b.a() * s2); };
    if (k.type == "spherical") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return (p_2(b) - p_1(a)).norm();
      };
    } else if (k.type == "revolute") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return (p_2(b) - p_1(a)).norm() + (a.a() * h1 - b.a() * h2).norm();
      };
    } else if (k.type == "cylindrical") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return (p_2(b) - p_1(a)).cross(a.a() * h1).norm() + (a.a() * h1 - b.a() * h2).norm();
      };
    } else if (k.type == "translational") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return (p_2(b) - p_1(a)).cross(a.a() * h1).norm() +
               (a.a().transpose() * b.a() - relative0).cwiseAbs().maxCoeff();
      };
    } else if (k.type == "universal") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return (p_2(b) - p_1(a)).norm() + std::abs((a.a() * h1).dot(b.a() * cross_j2));
      };
    } else if (k.type == "distance") {
      k.violation = [=](const body_state& a, const body_state& b) {
        return std::abs((p_2(b) - p_1(a)).norm() - length);
      };
    } else {
      k.violation = [=](const body_state& a, const body_state& b) {
        return std::abs((a.a() * n1).dot(p_2(b) - p_1(a)) - offset);
      };
    }
    // Velocities: body 1 moves freely; body 2 turns with w1 + w_relative and its point P2 moves
    // with body 1's material point there plus v_relative.
    const Vector3d w2 = w1 + k.w_relative;
    const Vector3d v_p2 = v1 + w1.cross(p2_start - r1) + k.v_relative;
    const Vector3d v2 = v_p2 - w2.cross(p2_start - r2);
    auto body = [](const std::string& name, double mass_b, const Eigen::Matrix3d& j,
                   const Vector3d& r, const Vector4d& p, const Vector3d& v, const Vector3d& w) {
      return "[[body]]\nname = \"" + name + "\"\nmass = " + num(mass_b) +
             "\ninertia = " + vec(j.diagonal()) + "\nposition = " + vec(r) +
             "\norientation = " + vec(p) + "\nvelocity = " + vec(v) +
             "\nangular_velocity = " + vec(w) + "\n\n";
    };
    const std::string text =
        "[model]\nspace = \"spatial\"\n\n" + body("b1", m1, j1, r1, p1, v1, w1) +
        body("b2", m2, j2, r2, p2, v2, w2) + "[[joint]]\nname = \"j\"\ntype = \"" + k.type +
        "\"\nbody_i = \"b1\"\nbody_j = \"b2\"\npoint_i = " + vec(s1) + "\npoint_j = " + vec(s2) +
        "\n" + k.extra;
    const model m = load_model_from_string(text, k.type + ".toml");
    simulation_options o;
    o.integrator = integrator_kind::dormand_prince;
    o.t_end = 2.0;
    o.dt = 0.05;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    auto solver = make_solver("gigsp");
    const simulation_result r = simulate(m, *solver, o);
    ASSERT_TRUE(r.completed) << k.type << ": " << r.message;
    auto momenta = [&](const step_record& rec) {
      const body_state b1 = state_of(m, rec.q, rec.qd, "b1"), b2 = state_of(m, rec.q, rec.qd, "b2");
      const Vector3d linear = m1 * b1.v + m2 * b2.v;
      const Vector3d angular = m1 * b1.r.cross(b1.v) + b1.a() * j1 * b1.omega_body() +
                               m2 * b2.r.cross(b2.v) + b2.a() * j2 * b2.omega_body();
      return std::pair{linear, angular};
    };
    const auto [l0, h0] = momenta(r.records.front());
    double worst = 0, worst_l = 0, worst_h = 0;
    for (const step_record& rec : r.records) {
      const auto [l, hh] = momenta(rec);
      worst_l = std::max(worst_l, (l - l0).norm());
      worst_h = std::max(worst_h, (hh - h0).norm());
      worst = std::max(
          worst, k.violation(state_of(m, rec.q, rec.qd, "b1"), state_of(m, rec.q, rec.qd, "b2")));
    }
    EXPECT_LT(worst, 1e-8) << k.type;
    EXPECT_LT(worst_l, 1e-10 * l0.norm()) << k.type;
    EXPECT_LT(worst_h, 1e-9 * h0.norm()) << k.type;
    EXPECT_LT(r.max_energy_change, 1e-9 * std::abs(r.initial_energy)) << k.type;
  }
}

// A free body on a spring from the ground point at the origin to its centre, along x, with no
// gravity: a one-dimensional oscillator m x'' = -k (x - l0) - c x', with omega^2 = k/m. Undamped
// x = l0 + A cos(omega t); damped (sigma = c / (2 m), omega_d^2 = omega^2 - sigma^2, from rest)
// x = l0 + A exp(-sigma t) (cos(omega_d t) + sigma/omega_d sin(omega_d t)).
TEST(SpatialJoints, SpringDamperOscillatesAtSqrtKOverM) {
  const double k = 6, l0 = 1, amplitude = 0.2;
  const double omega = std::sqrt(k / mass);  // 2 rad/s
  for (const double damping : {0.0, 0.3}) {
    const std::string text =
        model_text(Vector3d(l0 + amplitude, 0, 0), Vector3d::Zero(), Vector3d::Zero(),
                   "[[force]]\ntype = \"spring_damper\"\nbody_i = \"ground\"\nbody_j = \"b\"\n"
                   "stiffness = " +
                       num(k) + "\ndamping = " + num(damping) + "\nrest_length = " + num(l0) + "\n",
                   Vector3d::Zero());
    const model m = load_model_from_string(text, "spring.toml");
    simulation_options o;
    o.integrator = integrator_kind::dormand_prince;
    o.t_end = 2 * 2 * std::numbers::pi / omega;  // two periods
    o.dt = 0.05;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    auto solver = make_solver("gigsp");
    const simulation_result r = simulate(m, *solver, o);
    ASSERT_TRUE(r.completed) << r.message;
    const double sigma = damping / (2 * mass);
    const double omega_d = std::sqrt(omega * omega - sigma * sigma);
    double worst = 0, worst_energy = 0;
    for (const step_record& rec : r.records) {
      const body_state s = state_of(m, rec.q, rec.qd, "b");
      const double t = rec.t;
      const double x = l0 + amplitude * std::exp(-sigma * t) *
                                (std::cos(omega_d * t) + sigma / omega_d * std::sin(omega_d * t));
      worst = std::max(worst, std::abs(s.r.x() - x) + s.r.tail<2>().norm() +
                                  (s.p - p0).norm());  // neither leaves the line nor turns
      if (damping == 0) worst_energy = std::max(worst_energy, std::abs(rec.energy - k * 0.02));
    }
    EXPECT_LT(worst, 1e-8) << "damping " << damping;
    // The model's energy is 1/2 k (x - l0)^2 + kinetic: 1/2 * 6 * 0.2^2 throughout.
    if (damping == 0) {
      EXPECT_LT(worst_energy, 1e-9);
    }
  }
}

// Newton-Euler at rest: a force F at the body point s' and a torque n give a = F/m and
// J w'' = s' x (A^T F) + A^T n, whether the components are given in the global frame or (as
// A0^T F, A0^T n) in the body frame. w'' = 2 G p'' since G(p') p' = 0.
TEST(SpatialJoints, AppliedForceAndTorqueAgreeInBodyAndGlobalFrames) {
  const Vector3d force(1, -2, 0.5), torque(0.3, 0.1, -0.2);
  const Eigen::Matrix3d inertia = Vector3d(0.1, 0.2, 0.3).asDiagonal();
  const Vector3d expected_alpha =
      inertia.inverse() * (s_body.cross(a0.transpose() * force) + a0.transpose() * torque);
  auto applied = [&](const Vector3d& f, const Vector3d& n, const std::string& frame) {
    return "[[force]]\ntype = \"applied\"\nbody = \"b\"\npoint = " + vec(s_body) +
           "\nforce = " + vec(f) + "\ntorque = " + vec(n) + "\nframe = \"" + frame + "\"\n";
  };
  const std::vector<std::string> texts = {
      model_text(c, Vector3d::Zero(), Vector3d::Zero(), applied(force, torque, "global"),
                 Vector3d::Zero()),
      model_text(c, Vector3d::Zero(), Vector3d::Zero(),
                 applied(a0.transpose() * force, a0.transpose() * torque, "body"),
                 Vector3d::Zero())};
  auto solver = make_solver("gigsp");
  std::vector<Eigen::VectorXd> accelerations;
  for (const std::string& text : texts) {
    const model m = load_model_from_string(text, "applied.toml");
    const acceleration_result a =
        solver->solve(m.evaluate(m.initial_positions(), m.initial_velocities(), 0.0));
    ASSERT_EQ(a.status, solve_status::ok) << a.message;
    const body_state s = state_of(m, m.initial_positions(), a.acceleration, "b");
    // Read with q'' in place of q': s.v is the centre's acceleration, s.p_dot is p''.
    EXPECT_LT((s.v - force / mass).norm(), 1e-12);
    EXPECT_LT((2.0 * g_matrix(s.p) * s.p_dot - expected_alpha).norm(), 1e-12);
    accelerations.push_back(a.acceleration);
  }
  EXPECT_LT((accelerations[0] - accelerations[1]).norm(), 1e-12);
}

// A torque about a principal axis of a body at rest turns it about that fixed axis, so a torque
// fixed in the body and the same torque fixed in space agree for all time: the body turns by
// phi = n t^2 / (2 I_zz) about its z axis, A(t) = A0 Rz(phi).
TEST(SpatialJoints, BodyFrameTorqueAboutAPrincipalAxisMatchesTheGlobalOne) {
  const double n = 0.3, i_zz = 0.3;
  const Vector3d n_global = a0 * Vector3d(0, 0, n);
  auto applied = [&](const Vector3d& v, const std::string& frame) {
    return "[[force]]\ntype = \"applied\"\nbody = \"b\"\ntorque = " + vec(v) + "\nframe = \"" +
           frame + "\"\n";
  };
  std::vector<simulation_result> runs;
  std::vector<model> models;
  for (const auto& [v, frame] : {std::pair{n_global, std::string("global")},
                                 std::pair{Vector3d(0, 0, n), std::string("body")}}) {
    models.push_back(load_model_from_string(
        model_text(c, Vector3d::Zero(), Vector3d::Zero(), applied(v, frame), Vector3d::Zero()),
        frame + ".toml"));
    simulation_options o;
    o.integrator = integrator_kind::dormand_prince;
    o.t_end = 2.0;
    o.dt = 0.1;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    auto solver = make_solver("gigsp");
    runs.push_back(simulate(models.back(), *solver, o));
    ASSERT_TRUE(runs.back().completed) << runs.back().message;
  }
  ASSERT_EQ(runs[0].records.size(), runs[1].records.size());
  double worst = 0, worst_between = 0;
  for (std::size_t k = 0; k < runs[0].records.size(); ++k) {
    const double t = runs[0].records[k].t;
    const Eigen::Matrix3d expected =
        a0 * Eigen::AngleAxisd(n * t * t / (2 * i_zz), Vector3d::UnitZ()).toRotationMatrix();
    for (std::size_t i = 0; i < 2; ++i) {
      const body_state s = state_of(models[i], runs[i].records[k].q, runs[i].records[k].qd, "b");
      worst = std::max(worst, (s.a() - expected).cwiseAbs().maxCoeff() + (s.r - c).norm());
    }
    worst_between = std::max(worst_between, (runs[0].records[k].q - runs[1].records[k].q).norm());
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(worst_between, 1e-8);
}

// Bad input: an io::input_error whose message names the file, the line of the offending key and
// the field.
int line_of(const std::string& text, const std::string& snippet) {
  const std::size_t at = text.find(snippet);
  EXPECT_NE(at, std::string::npos) << snippet;
  EXPECT_EQ(text.find(snippet, at + 1), std::string::npos) << snippet << " is not unique";
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

void expect_refused(const std::string& text, const std::string& snippet, const std::string& field,
                    const std::string& message_part) {
  const std::string where = "bad.toml:" + std::to_string(line_of(text, snippet)) + ":";
  try {
    (void)load_model_from_string(text, "bad.toml");
    ADD_FAILURE() << "loaded: " << snippet;
  } catch (const io::input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(where), std::string::npos) << what;
    EXPECT_NE(what.find("field '" + field + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(message_part), std::string::npos) << what;
  }
}

const std::string particle_and_body = R"([model]
space = "spatial"

[[particle]]
name = "p"
mass = 1
position = [0, 0, 1]

[[body]]
name = "b"
mass = 1
inertia = [1, 1, 1]
position = [0, 0, 0]
)";

TEST(SpatialJoints, BadInputNamesFileLineAndField) {
  expect_refused(R"([model]
space = "spatial"

[[body]]
name = "b"
mass = 1
inertia = [1, 2, 3]
position = [0, 0, 0]
orientation = [1, 0.1, 0, 0]
)",
                 "orientation =", "orientation", "unit length");
  expect_refused(particle_and_body + R"(
[[joint]]
name = "j"
type = "screw"
body_i = "ground"
body_j = "b"
)",
                 "type = \"screw\"", "type", "unknown joint type 'screw'");
  expect_refused(particle_and_body + R"(
[[force]]
type = "applied"
body = "p"
torque = [0, 0, 1]
)",
                 "body = \"p\"", "body", "particle has no orientation");
  expect_refused(particle_and_body + R"(
[[joint]]
name = "j"
type = "revolute"
body_i = "ground"
body_j = "p"
point_i = [0, 0, 1]
)",
                 "body_j = \"p\"", "body_j", "particle has no orientation");
  expect_refused(particle_and_body + R"(
[[joint]]
name = "j"
type = "revolute"
body_i = "ground"
body_j = "b"
axis_i = [0, 0, 1]
reference_i = [1, 0, 1]
)",
                 "reference_i =", "reference_i", "perpendicular");
  expect_refused(R"([model]
name = "moon"
space = "lunar"
)",
                 "space =", "space", "\"planar\" or \"spatial\"");
  expect_refused(particle_and_body + R"(
[[joint]]
name = "slide"
type = "translational"
body_i = "ground"
body_j = "b"

[[joint]]
name = "drive"
type = "driver"
joint = "slide"
value = "t"
)",
                 "joint = \"slide\"", "joint", "translational joint cannot turn");
  expect_refused(particle_and_body + R"(
[[joint]]
name = "cross"
type = "universal"
body_i = "ground"
body_j = "b"
axis_i = [1, 0, 0]
axis_j = [1, 0, 0]
)",
                 "axis_j =", "axis_j", "perpendicular to axis_i");
}

// A torsion spring in a revolute joint: the disc turns about the joint axis as
// theta(t) = theta0 + (0 - theta0) cos(sqrt(k / I_zz) t) around its rest angle theta0, with
// the angle zero at the start (no references given); energy k theta0^2 / 2.
TEST(SpatialJoints, RotationalSpringInARevoluteJointOscillatesAtSqrtKOverI) {
  const double k = 8, izz = 2, rest = -0.2, start = 0.3;
  const model m = load_model_from_string(R"([model]
space = "spatial"
[[body]]
name = "b"
mass = 1
inertia = [0.5, 0.5, 2]
position = [0, 0, 0]
rotation_axis = [0, 0, 1]
rotation_angle = 0.3
[[joint]]
name = "hinge"
type = "revolute"
body_i = "ground"
body_j = "b"
[[force]]
type = "rotational_spring_damper"
joint = "hinge"
stiffness = 8
rest_angle = -0.2
)",
                                         "torsion.toml");
  simulation_options o;
  o.integrator = integrator_kind::dormand_prince;
  o.t_end = 2.0;
  o.dt = 0.05;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  auto solver = make_solver("gigsp");
  const simulation_result r = simulate(m, *solver, o);
  ASSERT_TRUE(r.completed) << r.message;
  const double omega = std::sqrt(k / izz);
  for (const step_record& rec : r.records) {
    const body_state s = state_of(m, rec.q, rec.qd, "b");
    const double theta = 2 * std::atan2(s.p[3], s.p[0]) - start;  // about z, from the start
    EXPECT_NEAR(theta, rest - rest * std::cos(omega * rec.t), 1e-8) << rec.t;
    EXPECT_NEAR(rec.energy, k * rest * rest / 2, 1e-9) << rec.t;
  }
}

}  // namespace
}  // namespace kinevo::mechanics::spatial_joints_test
