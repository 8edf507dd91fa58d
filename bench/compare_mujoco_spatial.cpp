// Spatial models (kinevo issue 12) against MuJoCo. Run by hand: build/bench/compare_mujoco_spatial
// [trajectories|chains [N...]] (both by default). Each mechanism is described once (bodies, joints,
// initial state) and written both as a kinevo spatial model file and as MuJoCo XML.
//
// trajectories: the spherical pendulum with flywheel and a 3D double pendulum. kinevo integrates
//   with Dormand-Prince (rtol 1e-11) and the default solver (GIGSP); MuJoCo with its RK4 at a
//   fixed step. The centres of mass (MuJoCo's xipos) are compared at t = 0.1, 0.2, ..., 1.5.
//   MuJoCo is also run at half and a quarter of its step, and with each ball joint as three
//   hinges, which separates its step error (its quaternion integration) from a model mismatch. Step
//   times: kinevo RK4 and MuJoCo RK4 at the same fixed step, medians of 7.
// chains: one RK4 step of N = 2, 10, 50, 90 links (or the N given) joined by spherical joints
// (kinevo: 7 coordinates
//   and one normalisation row per body, GIGSP and LM; MuJoCo: ball joints), the model
//   evaluation, and the acceleration solve with and without the Euler-parameter rows "*.norm".
// profile MODEL SOLVER STEPS: one program alone (for perf or callgrind), STEPS RK4 steps of the
//   N-link chain (MODEL = N) or the flywheel pendulum (MODEL = flywheel) by kinevo with SOLVER,
//   or by MuJoCo (SOLVER = mujoco). Under callgrind (--instr-atstart=no) only the steps are
//   instrumented (bench/step_instructions.sh).
// mechanisms: one RK4 step (dt = 1e-3) of the spherical pendulum with flywheel, GIGSP and LM,
//   against MuJoCo's, as in the chains' table (compare_mujoco mechanisms: the planar ones).
#include <fmt/format.h>
#include <mujoco/mujoco.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

namespace mech = kinevo::mechanics;
using clock_type = std::chrono::steady_clock;
using vec3 = Eigen::Vector3d;
using quat = Eigen::Quaterniond;
using mat3 = Eigen::Matrix3d;

constexpr double gravity = 9.81;
constexpr int repeats = 7;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Medians over `repeats` samples of the mean time of `per_sample` calls of each of `fs`,
// microseconds. The functions take turns within each repeat, so that a load from other
// processes on the machine falls on all of them alike (the ratios are the figures to trust).
std::vector<double> paired_us(int per_sample, const std::vector<std::function<void()>>& fs) {
  std::vector<std::vector<double>> samples(fs.size());
  for (int rep = 0; rep < repeats; ++rep) {
    for (std::size_t k = 0; k < fs.size(); ++k) {
      const auto t0 = clock_type::now();
      for (int i = 0; i < per_sample; ++i) fs[k]();
      samples[k].push_back(
          std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() / per_sample);
    }
  }
  std::vector<double> medians;
  for (auto& v : samples) medians.push_back(median(v));
  return medians;
}

// One rigid body of a tree, joined to its parent (or the ground) by a ball or a hinge joint.
struct link {
  std::string name;
  int parent = -1;     // index of an earlier link; -1 for the ground
  bool hinge = false;  // revolute about `axis`, else spherical
  vec3 axis{0, 0, 1};  // hinge axis in the link's own (centroidal) frame
  vec3 point_parent{0, 0,
                    0};  // joint point in the parent's centroidal frame (global for the ground)
  vec3 point_child{0, 0, 0};  // joint point in the link's centroidal frame
  double mass = 1.0;
  vec3 inertia{1, 1, 1};           // principal centroidal moments along the link's axes
  quat orientation{1, 0, 0, 0};    // link -> global, initial
  vec3 angular_velocity{0, 0, 0};  // global, initial
  // Filled by complete(): centre of mass and its velocity, consistent with the joints.
  vec3 position{0, 0, 0};
  vec3 velocity{0, 0, 0};
};

struct mechanism {
  std::string name;
  std::vector<link> links;
};

// Positions and velocities of the centres of mass from the orientations and angular velocities
// (parents first): r = r_p + A_p s_p - A s, v = v_p + w_p x A_p s_p - w x A s.
void complete(mechanism& m) {
  for (auto& l : m.links) {
    vec3 r_p = vec3::Zero(), v_p = vec3::Zero(), w_p = vec3::Zero();
    mat3 a_p = mat3::Identity();
    if (l.parent >= 0) {
      const auto& p = m.links[static_cast<std::size_t>(l.parent)];
      r_p = p.position;
      v_p = p.velocity;
      w_p = p.angular_velocity;
      a_p = p.orientation.toRotationMatrix();
    }
    const mat3 a = l.orientation.toRotationMatrix();
    l.position = r_p + a_p * l.point_parent - a * l.point_child;
    l.velocity =
        v_p + w_p.cross(a_p * l.point_parent) - l.angular_velocity.cross(a * l.point_child);
  }
}

std::string toml_vec(const vec3& v) {
  return fmt::format("[{}, {}, {}]", v.x(), v.y(), v.z());
}
std::string xml_vec(const vec3& v) {
  return fmt::format("{} {} {}", v.x(), v.y(), v.z());
}

// The kinevo spatial model file (docs/model-files.md, spatial models).
std::string kinevo_text(const mechanism& m) {
  std::string s = fmt::format("[model]\nname = \"{}\"\nspace = \"spatial\"\ngravity = [0, 0, {}]\n",
                              m.name, -gravity);
  for (const auto& l : m.links) {
    const quat& q = l.orientation;
    s += fmt::format(
        "\n[[body]]\nname = \"{}\"\nmass = {}\ninertia = {}\nposition = {}\n"
        "orientation = [{}, {}, {}, {}]\nvelocity = {}\nangular_velocity = {}\n"
        "angular_velocity_frame = \"global\"\n",
        l.name, l.mass, toml_vec(l.inertia), toml_vec(l.position), q.w(), q.x(), q.y(), q.z(),
        toml_vec(l.velocity), toml_vec(l.angular_velocity));
  }
  for (const auto& l : m.links) {
    const std::string parent =
        l.parent < 0 ? std::string("ground") : m.links[static_cast<std::size_t>(l.parent)].name;
    s += fmt::format(
        "\n[[joint]]\ntype = \"{}\"\nname = \"{}_joint\"\nbody_i = \"{}\"\nbody_j = \"{}\"\n"
        "point_i = {}\npoint_j = {}\n",
        l.hinge ? "revolute" : "spherical", l.name, parent, l.name, toml_vec(l.point_parent),
        toml_vec(l.point_child));
    if (l.hinge) {
      // The same axis in the parent's frame at the initial configuration.
      const quat q_p =
          l.parent < 0 ? quat::Identity() : m.links[static_cast<std::size_t>(l.parent)].orientation;
      const vec3 axis_i = (q_p.conjugate() * l.orientation) * l.axis;
      s += fmt::format("axis_i = {}\naxis_j = {}\n", toml_vec(axis_i), toml_vec(l.axis));
    }
  }
  return s;
}

// MuJoCo XML: nested bodies whose frames have the links' axes and their origin at the joint
// point; the initial configuration is in the bodies' pos and quat (qpos0 = identity / 0).
// Inertial elements only: no geoms, hence no contacts. `gimbal`: each ball joint as three hinges
// about the body's x, y, z axes (Cardan angles, all zero initially), whose RK4 integration is the
// plain one of scalar coordinates.
std::string mujoco_xml(const mechanism& m, double timestep, bool gimbal) {
  std::function<std::string(int)> body = [&](int i) {
    const auto& l = m.links[static_cast<std::size_t>(i)];
    vec3 pos = l.point_parent;
    quat rel = l.orientation;
    if (l.parent >= 0) {
      const auto& p = m.links[static_cast<std::size_t>(l.parent)];
      pos = l.point_parent - p.point_child;  // from the parent's frame origin (its joint point)
      rel = p.orientation.conjugate() * l.orientation;
    }
    std::string joints;
    if (l.hinge) {
      joints = fmt::format("<joint name=\"{}_joint\" type=\"hinge\" axis=\"{}\"/>", l.name,
                           xml_vec(l.axis));
    } else if (gimbal) {
      for (const char* axis : {"x", "y", "z"}) {
        joints +=
            fmt::format("<joint name=\"{}_joint_{}\" type=\"hinge\" axis=\"{}\"/>", l.name, axis,
                        axis[0] == 'x' ? "1 0 0" : (axis[0] == 'y' ? "0 1 0" : "0 0 1"));
      }
    } else {
      joints = fmt::format("<joint name=\"{}_joint\" type=\"ball\"/>", l.name);
    }
    std::string s = fmt::format(
        "<body name=\"{}\" pos=\"{}\" quat=\"{} {} {} {}\">{}"
        "<inertial pos=\"{}\" mass=\"{}\" diaginertia=\"{}\"/>",
        l.name, xml_vec(pos), rel.w(), rel.x(), rel.y(), rel.z(), joints, xml_vec(-l.point_child),
        l.mass, xml_vec(l.inertia));
    for (std::size_t c = 0; c < m.links.size(); ++c) {
      if (m.links[c].parent == i) s += body(static_cast<int>(c));
    }
    return s + "</body>";
  };
  std::string s = fmt::format(
      "<mujoco model=\"{}\"><option timestep=\"{}\" integrator=\"RK4\" gravity=\"0 0 {}\"/>"
      "<worldbody>",
      m.name, timestep, -gravity);
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    if (m.links[i].parent < 0) s += body(static_cast<int>(i));
  }
  return s + "</worldbody></mujoco>";
}

// MuJoCo's model and data, freed together.
struct mujoco_run {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  bool gimbal = false;
  mujoco_run(const mechanism& m, double timestep, bool gimbal_joints = false)
      : gimbal(gimbal_joints) {
    const auto path = std::filesystem::temp_directory_path() /
                      fmt::format("kinevo_spatial_{}.xml", static_cast<const void*>(this));
    {
      std::ofstream f(path);
      f << mujoco_xml(m, timestep, gimbal);
    }
    char error[1000] = "";
    model = mj_loadXML(path.string().c_str(), nullptr, error, sizeof(error));
    std::filesystem::remove(path);
    if (model == nullptr) {
      throw kinevo::io::input_error(fmt::format("MuJoCo, {}: {}", m.name, error));
    }
    data = mj_makeData(model);
    reset(m);
  }
  mujoco_run(const mujoco_run&) = delete;
  mujoco_run& operator=(const mujoco_run&) = delete;
  ~mujoco_run() {
    mj_deleteData(data);
    mj_deleteModel(model);
  }
  // Rest configuration (qpos0) with the initial joint velocities: a ball joint's is the angular
  // velocity relative to the parent in the child's frame, a hinge's the rate about its axis. At
  // zero Cardan angles the three hinges' rates are that relative angular velocity's components.
  void reset(const mechanism& m) {
    mj_resetData(model, data);
    auto dof = [&](const std::string& joint) {
      return model->jnt_dofadr[mj_name2id(model, mjOBJ_JOINT, joint.c_str())];
    };
    for (const auto& l : m.links) {
      const vec3 w_p = l.parent < 0 ? vec3::Zero()
                                    : m.links[static_cast<std::size_t>(l.parent)].angular_velocity;
      const vec3 w_rel = l.orientation.conjugate() * (l.angular_velocity - w_p);
      if (l.hinge) {
        data->qvel[dof(l.name + "_joint")] = w_rel.dot(l.axis);
      } else if (gimbal) {
        data->qvel[dof(l.name + "_joint_x")] = w_rel.x();
        data->qvel[dof(l.name + "_joint_y")] = w_rel.y();
        data->qvel[dof(l.name + "_joint_z")] = w_rel.z();
      } else {
        for (int k = 0; k < 3; ++k) data->qvel[dof(l.name + "_joint") + k] = w_rel[k];
      }
    }
    mj_forward(model, data);
  }
  vec3 centre(int body) const {
    return {data->xipos[3 * body], data->xipos[3 * body + 1], data->xipos[3 * body + 2]};
  }
};

// ---------------------------------------------------------------------------------------------
// The mechanisms.

// Spherical pendulum with flywheel: rod hinged at the origin by a spherical joint, wheel on a
// revolute joint at its far end, axis along the rod (the links' z axes). Tilted 30 deg from the
// downward vertical about the global x axis; wheel spinning at 20 rad/s, rod at rest.
mechanism flywheel_pendulum() {
  const quat tilt(Eigen::AngleAxisd(std::numbers::pi / 6.0, vec3::UnitX()));
  mechanism m{"spherical pendulum with flywheel", {}};
  link rod;
  rod.name = "rod";
  rod.mass = 2.71944;
  rod.inertia = {0.05708, 0.05708, 0.0008498};
  rod.point_parent = vec3::Zero();
  rod.point_child = {0, 0, 0.25};  // rod of length 0.5, centre of mass at its middle
  rod.orientation = tilt;
  link wheel;
  wheel.name = "wheel";
  wheel.parent = 0;
  wheel.hinge = true;
  wheel.axis = vec3::UnitZ();
  wheel.mass = 4.89499;
  wheel.inertia = {0.02779, 0.02779, 0.05507};
  wheel.point_parent = {0, 0, -0.25};
  wheel.point_child = vec3::Zero();
  wheel.orientation = tilt;
  wheel.angular_velocity = tilt * vec3(0, 0, 20.0);
  m.links = {rod, wheel};
  complete(m);
  return m;
}

// A slender rod along its z axis: m l^2 / 12 across, m r^2 / 2 along (radius r = 0.01 l).
vec3 slender_inertia(double mass, double length) {
  const double across = mass * length * length / 12.0;
  const double r = 0.01 * length;
  return {across, across, mass * r * r / 2.0};
}

// 3D double pendulum: two slender rods (1 kg, 0.8 m; 0.6 kg, 0.6 m) joined by spherical joints,
// the first at the origin. Tilted 40 deg about x and 25 deg about an axis in the x-y plane;
// angular velocities out of every plane through the vertical, so the motion is 3D.
mechanism double_pendulum() {
  mechanism m{"spatial double pendulum", {}};
  link a;
  a.name = "upper";
  a.mass = 1.0;
  a.inertia = slender_inertia(1.0, 0.8);
  a.point_parent = vec3::Zero();
  a.point_child = {0, 0, 0.4};
  a.orientation = quat(Eigen::AngleAxisd(40.0 * std::numbers::pi / 180.0, vec3::UnitX()));
  a.angular_velocity = {0.0, 1.5, 0.0};
  link b;
  b.name = "lower";
  b.parent = 0;
  b.mass = 0.6;
  b.inertia = slender_inertia(0.6, 0.6);
  b.point_parent = {0, 0, -0.4};
  b.point_child = {0, 0, 0.3};
  b.orientation = quat(Eigen::AngleAxisd(25.0 * std::numbers::pi / 180.0, vec3(0.6, -0.8, 0.0)));
  b.angular_velocity = {-1.0, 0.5, 2.0};
  m.links = {a, b};
  complete(m);
  return m;
}

// N unit links of 1 kg hanging from the origin by spherical joints, link k rotated by 0.1 rad
// about a horizontal axis at 0.7 k rad from x (a small 3D perturbation), at rest.
mechanism spatial_chain(int links) {
  mechanism m{fmt::format("spatial chain, N = {}", links), {}};
  for (int k = 0; k < links; ++k) {
    link l;
    l.name = fmt::format("b{}", k + 1);
    l.parent = k - 1;
    l.mass = 1.0;
    l.inertia = slender_inertia(1.0, 1.0);
    l.point_parent = k == 0 ? vec3::Zero() : vec3(0, 0, -0.5);
    l.point_child = {0, 0, 0.5};
    l.orientation =
        quat(Eigen::AngleAxisd(0.1, vec3(std::cos(0.7 * (k + 1)), std::sin(0.7 * (k + 1)), 0.0)));
    m.links.push_back(l);
  }
  complete(m);
  return m;
}

// A kinevo run that stops early makes the comparison meaningless: say how it stopped (its
// status and message) and end with exit status 1, as the project's tools do.
[[noreturn]] void exit_stopped_early(const mechanism& m, const mech::simulation_result& r) {
  fmt::print(stderr, "compare_mujoco_spatial: kinevo, {}: stopped after {} steps ({}): {}\n",
             m.name, r.steps, mech::stop_name(r.stop), r.message);
  std::exit(1);
}

// ---------------------------------------------------------------------------------------------
// Trajectories.

constexpr double sample_interval = 0.1;
constexpr int samples = 15;  // t = 0.1 ... 1.5

// centres[s][body] at t = s * 0.1, s = 0 ... 15.
using centres = std::vector<std::vector<vec3>>;

centres kinevo_centres(const mechanism& m, const mech::model& model,
                       const mech::simulation_options& o) {
  auto solver = mech::make_solver("gigsp");
  const auto r = mech::simulate(model, *solver, o);
  if (!r.completed) exit_stopped_early(m, r);
  const auto& names = model.coordinate_names();
  auto index = [&](const std::string& n) {
    return static_cast<int>(std::find(names.begin(), names.end(), n) - names.begin());
  };
  centres c(samples + 1);
  const int every = static_cast<int>(std::lround(sample_interval / o.dt));
  for (const auto& rec : r.records) {
    const long k = std::lround(rec.t / o.dt);
    if (k % every != 0 || std::abs(rec.t - k * o.dt) > 1e-9) continue;
    auto& row = c[static_cast<std::size_t>(k / every)];
    for (const auto& l : m.links) {
      row.emplace_back(rec.q[index(l.name + "_x")], rec.q[index(l.name + "_y")],
                       rec.q[index(l.name + "_z")]);
    }
  }
  return c;
}

centres mujoco_centres(const mechanism& m, double timestep, bool gimbal = false) {
  mujoco_run run(m, timestep, gimbal);
  std::vector<int> ids;
  for (const auto& l : m.links) ids.push_back(mj_name2id(run.model, mjOBJ_BODY, l.name.c_str()));
  centres c;
  auto record = [&] {
    c.emplace_back();
    for (int id : ids) c.back().push_back(run.centre(id));
  };
  record();
  const long per_sample = std::lround(sample_interval / timestep);
  for (int s = 1; s <= samples; ++s) {
    for (long i = 0; i < per_sample; ++i) mj_step(run.model, run.data);
    record();
  }
  return c;
}

// max over samples and bodies of |a - b| (Euclidean), and the first-sample-to-last profile.
double max_difference(const centres& a, const centres& b,
                      std::vector<double>* per_sample = nullptr) {
  double worst = 0.0;
  for (std::size_t s = 0; s < a.size() && s < b.size(); ++s) {
    double row = 0.0;
    for (std::size_t k = 0; k < a[s].size() && k < b[s].size(); ++k) {
      row = std::max(row, (a[s][k] - b[s][k]).norm());
    }
    if (a[s].size() != b[s].size()) row = std::numeric_limits<double>::quiet_NaN();
    if (per_sample != nullptr) per_sample->push_back(row);
    worst = std::max(worst, row);
  }
  return worst;
}

// Global angular velocity of a MuJoCo body (mj_objectVelocity: rotation first).
vec3 mujoco_angular_velocity(const mujoco_run& run, int body) {
  mjtNum v[6];
  mj_objectVelocity(run.model, run.data, mjOBJ_BODY, body, v, 0);
  return {v[0], v[1], v[2]};
}

void trajectory(const mechanism& m) {
  constexpr double dt = 1e-4;
  fmt::print("\n## {}\n\n", m.name);

  // The initial states agree (centres and angular velocities), so any later difference is the
  // integration or the equations.
  {
    mujoco_run run(m, dt);
    double dr = 0.0, dw = 0.0;
    for (const auto& l : m.links) {
      const int id = mj_name2id(run.model, mjOBJ_BODY, l.name.c_str());
      dr = std::max(dr, (run.centre(id) - l.position).norm());
      dw = std::max(dw, (mujoco_angular_velocity(run, id) - l.angular_velocity).norm());
    }
    fmt::print(
        "initial state, MuJoCo vs the description: centres {:.1e} m, angular velocities "
        "{:.1e} rad/s\n",
        dr, dw);
  }

  const centres mj = mujoco_centres(m, dt);
  const centres mj2 = mujoco_centres(m, dt / 2);
  const centres mj4 = mujoco_centres(m, dt / 4);
  const centres mj_gimbal = mujoco_centres(m, dt, true);
  const centres mj_gimbal2 = mujoco_centres(m, dt / 2, true);

  const auto model = mech::load_model_from_string(kinevo_text(m), m.name);
  fmt::print("kinevo: n = {} coordinates, m = {} constraint rows\n", model.coordinates(),
             model.constraints());

  mech::simulation_options dp;
  dp.integrator = mech::integrator_kind::dormand_prince;
  dp.t_end = samples * sample_interval;
  dp.dt = sample_interval;
  dp.rtol = 1e-11;
  dp.atol = 1e-13;
  const auto t0 = clock_type::now();
  const centres k_dp = kinevo_centres(m, model, dp);
  const double dp_s = std::chrono::duration<double>(clock_type::now() - t0).count();

  mech::simulation_options rk;
  rk.t_end = dp.t_end;
  rk.dt = dt;
  const centres k_rk = kinevo_centres(m, model, rk);

  std::vector<double> profile, profile4;
  const double d = max_difference(k_dp, mj, &profile);
  const double d4 = max_difference(k_dp, mj4, &profile4);
  fmt::print("kinevo Dormand-Prince (rtol 1e-11, atol 1e-13, GIGSP): {:.2f} s\n", dp_s);
  fmt::print("max |centre difference| over t = 0.1..1.5 and the bodies:\n");
  fmt::print("  kinevo DP vs MuJoCo RK4 dt = {:g}:    {:.3e} m\n", dt, d);
  fmt::print("  kinevo DP vs MuJoCo RK4 dt = {:g}:  {:.3e} m\n", dt / 2, max_difference(k_dp, mj2));
  fmt::print("  kinevo DP vs MuJoCo RK4 dt = {:g}: {:.3e} m\n", dt / 4, d4);
  fmt::print("  MuJoCo dt = {:g} vs dt = {:g}:       {:.3e} m\n", dt, dt / 2,
             max_difference(mj, mj2));
  fmt::print("  MuJoCo dt = {:g} vs dt = {:g}:   {:.3e} m\n", dt / 2, dt / 4,
             max_difference(mj2, mj4));
  fmt::print("  kinevo DP vs MuJoCo RK4 dt = {:g}, ball joints as three hinges: {:.3e} m\n", dt,
             max_difference(k_dp, mj_gimbal));
  fmt::print("  kinevo DP vs MuJoCo RK4 dt = {:g}, ball joints as three hinges: {:.3e} m\n", dt / 2,
             max_difference(k_dp, mj_gimbal2));
  fmt::print("  kinevo RK4 dt = {:g} vs kinevo DP:   {:.3e} m\n", dt, max_difference(k_rk, k_dp));
  fmt::print("  kinevo RK4 dt = {:g} vs MuJoCo RK4:  {:.3e} m\n", dt, max_difference(k_rk, mj));
  fmt::print("per sample (t: DP vs MuJoCo dt = {:g}, DP vs MuJoCo dt = {:g}):\n", dt, dt / 4);
  for (std::size_t s = 1; s < profile.size(); ++s) {
    fmt::print("  {:.1f}: {:.3e} {:.3e}\n", s * sample_interval, profile[s], profile4[s]);
  }
  fmt::print("centres at t = 1.5, kinevo DP:");
  for (const auto& c : k_dp.back()) fmt::print(" ({:.9f}, {:.9f}, {:.9f})", c.x(), c.y(), c.z());
  fmt::print("\n");

  // Step times at dt over the 1.5 s, medians of 7.
  auto solver = mech::make_solver("gigsp");
  mech::simulation_options timed = rk;
  timed.diagnostics = false;
  const long steps = std::lround(timed.t_end / dt);
  mujoco_run run(m, dt);
  const auto us = paired_us(1, {[&] {
                                  mech::simulate(model, *solver, timed,
                                                 [](const mech::step_record&) { return true; });
                                },
                                [&] {
                                  run.reset(m);
                                  for (long i = 0; i < steps; ++i) mj_step(run.model, run.data);
                                }});
  const double kinevo_us = us[0] / static_cast<double>(steps);
  const double mujoco_us = us[1] / static_cast<double>(steps);
  fmt::print(
      "RK4 step, dt = {:g}, {} steps, median of {}: kinevo (GIGSP) {:.2f} us, MuJoCo "
      "{:.2f} us, kinevo / MuJoCo {:.2f}\n",
      dt, steps, repeats, kinevo_us, mujoco_us, kinevo_us / mujoco_us);
}

// ---------------------------------------------------------------------------------------------
// Chains.

// The system without the rows named "*.norm" (their names, pattern and rows dropped).
struct reduced_system {
  std::vector<std::string> names;
  std::vector<std::pair<int, int>> pattern;
  mech::constrained_system system;
};

reduced_system without_norm_rows(const mech::constrained_system& s) {
  reduced_system r;
  std::vector<int> kept;
  std::map<int, int> new_row;
  for (int i = 0; i < s.constraints(); ++i) {
    const std::string& n = s.constraint_names[static_cast<std::size_t>(i)];
    if (n.size() >= 5 && n.compare(n.size() - 5, 5, ".norm") == 0) continue;
    new_row[i] = static_cast<int>(kept.size());
    kept.push_back(i);
    r.names.push_back(n);
  }
  for (const auto& [row, col] : s.jacobian_pattern) {
    const auto it = new_row.find(row);
    if (it != new_row.end()) r.pattern.emplace_back(it->second, col);
  }
  r.system.mass = s.mass;
  r.system.mass_is_diagonal = s.mass_is_diagonal;
  r.system.mass_blocks = s.mass_blocks;
  r.system.force = s.force;
  r.system.jacobian.resize(static_cast<Eigen::Index>(kept.size()), s.jacobian.cols());
  r.system.rhs.resize(static_cast<Eigen::Index>(kept.size()));
  for (std::size_t k = 0; k < kept.size(); ++k) {
    r.system.jacobian.row(static_cast<Eigen::Index>(k)) = s.jacobian.row(kept[k]);
    r.system.rhs[static_cast<Eigen::Index>(k)] = s.rhs[kept[k]];
  }
  r.system.constraint_names = r.names;
  if (!s.jacobian_pattern.empty()) r.system.jacobian_pattern = r.pattern;
  return r;
}

double sink = 0.0;  // keeps the timed results alive

// `steps` RK4 steps of MuJoCo, of kinevo with GIGSP and of kinevo with LM, timed taking turns:
// microseconds per run (paired_us's medians), in that order. A kinevo run that stops early ends
// the program (exit_stopped_early).
std::vector<double> timed_step_runs(const mechanism& m, const mech::model& model, mujoco_run& run,
                                    mech::acceleration_solver& gigsp, mech::acceleration_solver& lm,
                                    double dt, int steps) {
  mech::simulation_options o;
  o.dt = dt;
  o.t_end = steps * dt;
  o.diagnostics = false;
  auto kinevo_run = [&](mech::acceleration_solver& solver) {
    return [&] {
      const auto r =
          mech::simulate(model, solver, o, [](const mech::step_record&) { return true; });
      if (r.steps != steps) exit_stopped_early(m, r);
    };
  };
  return paired_us(1, {[&] {
                         run.reset(m);
                         for (int i = 0; i < steps; ++i) mj_step(run.model, run.data);
                       },
                       kinevo_run(gigsp), kinevo_run(lm)});
}

void chains(const std::vector<int>& sizes) {
  constexpr double dt = 1e-3;
  fmt::print("\n## spatial chains: one RK4 step (dt = {:g}), microseconds, median of {}\n\n", dt,
             repeats);
  fmt::print("{:>4} {:>5} {:>5} {:>10} {:>12} {:>10} {:>13} {:>10}\n", "N", "n", "m", "MuJoCo",
             "kinevo-gigsp", "kinevo-lm", "gigsp/MuJoCo", "lm/MuJoCo");
  struct solve_row {
    int links;
    double evaluate, gigsp_all, gigsp_no_norm, lm_all, lm_no_norm, da_gigsp, da_lm;
  };
  std::vector<solve_row> solve_rows;
  for (int links : sizes) {
    const mechanism m = spatial_chain(links);
    const auto model = mech::load_model_from_string(kinevo_text(m), m.name);
    const int steps = links >= 90 ? 100 : (links >= 50 ? 200 : (links >= 10 ? 1000 : 5000));

    mujoco_run run(m, dt);
    auto gigsp = mech::make_solver("gigsp");
    auto lm = mech::make_solver("lm");
    const auto us = timed_step_runs(m, model, run, *gigsp, *lm, dt, steps);
    const double mj = us[0] / steps;
    const double g = us[1] / steps;
    const double l = us[2] / steps;
    fmt::print("{:>4} {:>5} {:>5} {:>10.2f} {:>12.2f} {:>10.2f} {:>13.2f} {:>10.2f}\n", links,
               model.coordinates(), model.constraints(), mj, g, l, g / mj, l / mj);

    // One state (the initial one): evaluation, and the solves with and without "*.norm".
    mech::constrained_system s;
    const auto& q = model.initial_positions();
    const auto& qd = model.initial_velocities();
    const int per = links >= 50 ? 20 : 5000;
    model.evaluate(q, qd, 0.0, s);
    const reduced_system r = without_norm_rows(s);
    auto solve = [&](mech::acceleration_solver& solver, const mech::constrained_system& system) {
      return [&solver, &system] { sink += solver.solve(system).acceleration[0]; };
    };
    const auto t = paired_us(
        per, {[&] {
                model.evaluate(q, qd, 0.0, s);
                sink += s.rhs[0];
              },
              solve(*gigsp, s), solve(*gigsp, r.system), solve(*lm, s), solve(*lm, r.system)});
    // How far the centre-of-mass accelerations move without the rows: the Euler parameters'
    // scaling mode is then free, so it is not the same problem.
    const auto& names = model.coordinate_names();
    auto moved = [&](mech::acceleration_solver& solver) {
      const Eigen::VectorXd a = solver.solve(s).acceleration;
      const Eigen::VectorXd b = solver.solve(r.system).acceleration;
      double da = 0.0;
      for (std::size_t i = 0; i < names.size(); ++i) {
        const char last = names[i].back();
        if (names[i].size() > 2 && names[i][names[i].size() - 2] == '_' &&
            (last == 'x' || last == 'y' || last == 'z')) {
          const auto k = static_cast<Eigen::Index>(i);
          da = std::max(da, std::abs(a[k] - b[k]));
        }
      }
      return da;
    };
    const solve_row row{links, t[0], t[1], t[2], t[3], t[4], moved(*gigsp), moved(*lm)};
    solve_rows.push_back(row);
  }
  fmt::print(
      "\n## spatial chains at the initial state: model evaluation and acceleration solve with all "
      "rows and without the rows \"*.norm\", microseconds, median of {}\n\n",
      repeats);
  fmt::print("{:>4} {:>9} {:>10} {:>13} {:>6} {:>8} {:>10} {:>6} {:>10} {:>10}\n", "N", "evaluate",
             "gigsp all", "gigsp -norm", "ratio", "lm all", "lm -norm", "ratio", "da gigsp",
             "da lm");
  for (const auto& r : solve_rows) {
    fmt::print(
        "{:>4} {:>9.2f} {:>10.2f} {:>13.2f} {:>6.2f} {:>8.2f} {:>10.2f} {:>6.2f} {:>10.3g} "
        "{:>10.3g}\n",
        r.links, r.evaluate, r.gigsp_all, r.gigsp_no_norm, r.gigsp_all / r.gigsp_no_norm, r.lm_all,
        r.lm_no_norm, r.lm_all / r.lm_no_norm, r.da_gigsp, r.da_lm);
  }
}

// The flywheel pendulum's RK4 step at dt = 1e-3 with GIGSP and LM against MuJoCo's, medians of
// `repeats`, taking turns (the table of compare_mujoco mechanisms).
void mechanisms() {
  constexpr double dt = 1e-3;
  constexpr int steps = 5000;
  const mechanism m = flywheel_pendulum();
  const auto model = mech::load_model_from_string(kinevo_text(m), m.name);
  mujoco_run run(m, dt);
  auto gigsp = mech::make_solver("gigsp");
  auto lm = mech::make_solver("lm");
  const auto us = timed_step_runs(m, model, run, *gigsp, *lm, dt, steps);
  const double t = us[0] / steps, g = us[1] / steps, l = us[2] / steps;
  fmt::print("{:<24} {:>4} {:>4} {:>10} {:>12} {:>10} {:>13} {:>10}\n", "model", "n", "m", "MuJoCo",
             "kinevo-gigsp", "kinevo-lm", "gigsp/MuJoCo", "lm/MuJoCo");
  fmt::print("{:<24} {:>4} {:>4} {:>10.2f} {:>12.2f} {:>10.2f} {:>13.2f} {:>10.2f}\n",
             "pendulum with flywheel", model.coordinates(), model.constraints(), t, g, l, g / t,
             l / t);
}

// One program alone, for a profiler: `steps` RK4 steps (dt = 1e-3) of the N-link chain (or the
// flywheel pendulum for "flywheel") by kinevo with one solver, or by MuJoCo for "mujoco".
int profile(const std::string& which, const std::string& solver_name, int steps) {
  const mechanism m =
      which == "flywheel" ? flywheel_pendulum() : spatial_chain(std::atoi(which.c_str()));
  if (solver_name == "mujoco") {
    mujoco_run run(m, 1e-3);
    CALLGRIND_START_INSTRUMENTATION;
    run.reset(m);
    for (int i = 0; i < steps; ++i) mj_step(run.model, run.data);
    CALLGRIND_STOP_INSTRUMENTATION;
    fmt::print("{} MuJoCo steps\n", steps);
    return 0;
  }
  const auto model = mech::load_model_from_string(kinevo_text(m), m.name);
  auto solver = mech::make_solver(solver_name);
  mech::simulation_options o;
  o.dt = 1e-3;
  o.t_end = steps * o.dt;
  o.diagnostics = false;
  CALLGRIND_START_INSTRUMENTATION;
  const auto r = mech::simulate(model, *solver, o, [](const mech::step_record&) { return true; });
  CALLGRIND_STOP_INSTRUMENTATION;
  fmt::print("{} steps: {}\n", r.steps, r.message);
  return r.steps == steps ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "profile") {
    try {
      return profile(argv[2], argv[3], std::atoi(argv[4]));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "compare_mujoco_spatial: %s\n", e.what());
      return 1;
    }
  }
  if (argc == 2 && std::string(argv[1]) == "mechanisms") {
    try {
      mechanisms();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "compare_mujoco_spatial: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  const std::string what = argc > 1 ? argv[1] : "all";
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {2, 10, 50, 90};
  if (what != "all" && what != "trajectories" && what != "chains") {
    std::fprintf(stderr, "usage: %s [trajectories|chains [N...]]\n", argv[0]);
    return 2;
  }
  try {
    if (what != "chains") {
      fmt::print("# Spatial trajectories: kinevo vs MuJoCo {}\n", mj_versionString());
      trajectory(flywheel_pendulum());
      trajectory(double_pendulum());
    }
    if (what != "trajectories") chains(sizes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_mujoco_spatial: %s\n", e.what());
    return 1;
  }
  if (sink == 12345.678) std::printf("\n");
  return 0;
}
