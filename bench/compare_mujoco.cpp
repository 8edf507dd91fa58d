// Side-by-side timing of one RK4 step of an N-link planar pendulum chain: kinevo (particles
// with distance constraints, GIGSP or LM, n = 2N coordinates, m = N constraints) against
// MuJoCo (hinge joints, minimal coordinates, its RK4 integrator) on the same chain,
// N = 2, 10, 50, 90, 200 (or the N given as arguments). Medians of 7 repeats, the three
// taking turns within each repeat. Run by hand: build/bench/compare_mujoco [N...].
// `compare_mujoco profile MODEL SOLVER STEPS` runs one program alone, for a profiler: MODEL is
// a chain's N, `four-bar` or `slider-crank`; SOLVER a kinevo solver (gigsp, lm, ...) or `mujoco`.
// Under valgrind's callgrind (--instr-atstart=no) only the STEPS steps are instrumented, and the
// difference of two runs of different STEPS, divided by their difference, is the instruction
// count of one step (bench/step_instructions.sh).
// `compare_mujoco mechanisms`: the same step timing for two closed-loop planar mechanisms, each
// written once as a kinevo model and once as MuJoCo XML (its loop closed by a `connect`
// equality): a four-bar swinging under gravity (Haug's Example 4.2.1 geometry,
// examples/haug_fourbar.toml, without its crank driver) and examples/slider_crank.toml.
// MuJoCo 2.2's XML reader refuses bodies nested about 100 deep, so it has no N = 200 figure.
#include <fmt/format.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
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
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string mujoco_chain_xml(int links) {
  // Point-like masses at the end of each unit link, tiny rotational inertia; no geoms, so no
  // collision work. Gravity along -z, hinges about y: motion in the x-z plane.
  std::string body;
  std::string close;
  for (int k = 0; k < links; ++k) {
    body += fmt::format(
        "<body pos=\"0 0 {}\"><joint type=\"hinge\" axis=\"0 1 0\" damping=\"0\"/>"
        "<inertial pos=\"0 0 -1\" mass=\"1\" diaginertia=\"1e-6 1e-6 1e-6\"/>",
        k == 0 ? 0.0 : -1.0);
    close += "</body>";
  }
  return "<mujoco><option timestep=\"0.001\" integrator=\"RK4\" gravity=\"0 0 -9.81\"/>"
         "<worldbody>" +
         body + close + "</worldbody></mujoco>";
}

// Medians over 7 samples of the mean time of `per_sample` calls of each of `fs`,
// microseconds. The functions take turns within each repeat, so that a load from other
// processes on the machine falls on all of them alike (the ratios are the figures to trust).
std::vector<double> paired_us(int per_sample, const std::vector<std::function<void()>>& fs) {
  std::vector<std::vector<double>> samples(fs.size());
  for (int rep = 0; rep < 7; ++rep) {
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

struct mujoco_chain {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  explicit mujoco_chain(int links) {
    const auto path =
        std::filesystem::temp_directory_path() / fmt::format("kinevo_chain_{}.xml", links);
    {
      std::ofstream f(path);
      f << mujoco_chain_xml(links);
    }
    char error[1000] = "";
    model = mj_loadXML(path.string().c_str(), nullptr, error, sizeof(error));
    std::filesystem::remove(path);
    if (model == nullptr) {
      std::fprintf(stderr, "MuJoCo, N = %d: %s\n", links, error);
      return;
    }
    data = mj_makeData(model);
  }
  mujoco_chain(const mujoco_chain&) = delete;
  mujoco_chain& operator=(const mujoco_chain&) = delete;
  ~mujoco_chain() {
    if (data != nullptr) mj_deleteData(data);
    if (model != nullptr) mj_deleteModel(model);
  }
  void run(int steps) {
    mj_resetData(model, data);
    data->qpos[0] = 30.0 * 3.14159265358979323846 / 180.0;
    for (int i = 0; i < steps; ++i) mj_step(model, data);
  }
};

// The four-bar of examples/haug_fourbar.toml (crank 2, coupler and rocker 4, ground pivots 2
// apart, uniform bars of unit mass per length) with the ground as `ground` instead of a fixed
// body, no crank driver, and gravity along -y: one degree of freedom, n = 9, m = 8. Start:
// crank vertical, turning at 1 rad/s (the example's velocities).
constexpr const char* fourbar_kinevo = R"toml([model]
name = "four-bar under gravity"
gravity = [0.0, -9.81]

[parameters]
s7 = "sqrt(7)"

[[body]]
name = "b1"
mass = 2.0
inertia = "2.0*2^2/12"
position = [0.0, 1.0]
angle = "pi/2"
velocity = [-1.0, 0.0]
angular_velocity = 1.0

[[body]]
name = "b2"
mass = 4.0
inertia = "4.0*4^2/12"
position = ["(1 + s7)/2", "(3 + s7)/2"]
angle = "atan2(s7 - 1, 1 + s7)"
velocity = [-2.2559289460184546, 0.566946709513841]
angular_velocity = 0.31101776349538646

[[body]]
name = "b3"
mass = 4.0
inertia = "4.0*4^2/12"
position = ["(3 + s7)/2", "(1 + s7)/2"]
angle = "atan2(1 + s7, s7 - 1)"
velocity = [-1.2559289460184546, 0.566946709513841]
angular_velocity = 0.6889822365046137

[[joint]]
type = "revolute"
name = "R1"
body_i = "b1"
point_i = [-1.0, 0.0]
body_j = "ground"
point_j = [0.0, 0.0]

[[joint]]
type = "revolute"
name = "R2"
body_i = "b1"
point_i = [1.0, 0.0]
body_j = "b2"
point_j = [-2.0, 0.0]

[[joint]]
type = "revolute"
name = "R3"
body_i = "b2"
point_i = [2.0, 0.0]
body_j = "b3"
point_j = [2.0, 0.0]

[[joint]]
type = "revolute"
name = "R4"
body_i = "b3"
point_i = [-2.0, 0.0]
body_j = "ground"
point_j = [2.0, 0.0]
)toml";

// MuJoCo: hinge chain crank - coupler - rocker about z, each body placed at its initial angle
// (so qpos = 0 is the assembled start, where MuJoCo's connect takes its second point), the
// rocker's free end tied to the ground pivot (2, 0). Bars along their local x, centres at the
// middle; the negligible inertia about the bar's own axis keeps MuJoCo's triangle inequality.
std::string fourbar_xml() {
  const double s7 = std::sqrt(7.0);
  const double t1 = std::numbers::pi / 2;
  const double t2 = std::atan2(s7 - 1, 1 + s7);
  const double t3 = std::atan2(1 + s7, s7 - 1) + std::numbers::pi;  // from C towards D
  return fmt::format(
      R"xml(<mujoco><compiler angle="radian"/>
<option timestep="0.001" integrator="RK4" gravity="0 -9.81 0"/>
<worldbody>
<body name="crank" axisangle="0 0 1 {}"><joint name="q1" type="hinge" axis="0 0 1"/>
<inertial pos="1 0 0" mass="2" diaginertia="1e-6 {} {}"/>
<body name="coupler" pos="2 0 0" axisangle="0 0 1 {}"><joint name="q2" type="hinge" axis="0 0 1"/>
<inertial pos="2 0 0" mass="4" diaginertia="1e-6 {} {}"/>
<body name="rocker" pos="4 0 0" axisangle="0 0 1 {}"><joint name="q3" type="hinge" axis="0 0 1"/>
<inertial pos="2 0 0" mass="4" diaginertia="1e-6 {} {}"/>
</body></body></body></worldbody>
<equality><connect body1="rocker" body2="world" anchor="4 0 0" solref="0.002 1"/></equality></mujoco>)xml",
      t1, 2.0 * 4 / 12, 2.0 * 4 / 12, t2 - t1, 4.0 * 16 / 12, 4.0 * 16 / 12, t3 - t2, 4.0 * 16 / 12,
      4.0 * 16 / 12);
}
const std::vector<double> fourbar_qvel{1.0, 0.31101776349538646 - 1.0,
                                       0.6889822365046137 - 0.31101776349538646};

// MuJoCo model of examples/slider_crank.toml: crank and rod as a hinge chain at their initial
// angles, the slider on a slide joint along x, the wrist pin a connect equality, the spring
// (stiffness 400, rest length 3 from the ground point (9, 0)) the slide joint's own spring with
// its rest at x = 6.
constexpr double slider_x0 = 6.045060868544231;
std::string slider_crank_xml() {
  const double t1 = 0.8726646259971648, t2 = -0.31142749570579775;
  return fmt::format(
      R"xml(<mujoco><compiler angle="radian"/>
<option timestep="0.001" integrator="RK4" gravity="0 -9.81 0"/>
<worldbody>
<body name="crank" axisangle="0 0 1 {}"><joint name="q1" type="hinge" axis="0 0 1"/>
<inertial pos="1 0 0" mass="2" diaginertia="1e-6 {} {}"/>
<body name="rod" pos="2 0 0" axisangle="0 0 1 {}"><joint name="q2" type="hinge" axis="0 0 1"/>
<inertial pos="2.5 0 0" mass="3" diaginertia="1e-6 {} {}"/>
</body></body>
<body name="slider" pos="{} 0 0"><joint name="x" type="slide" axis="1 0 0" stiffness="400" springref="{}"/>
<inertial pos="0 0 0" mass="1.5" diaginertia="0.1 0.1 0.1"/>
</body></worldbody>
<equality><connect body1="rod" body2="slider" anchor="5 0 0" solref="0.002 1"/></equality></mujoco>)xml",
      t1, 2.0 * 4 / 12, 2.0 * 4 / 12, t2 - t1, 3.0 * 25 / 12, 3.0 * 25 / 12, slider_x0,
      6.0 - slider_x0);
}
const std::vector<double> slider_crank_qvel{12.0, -3.241296175599035 - 12.0, -23.351020482496345};

struct mujoco_xml_run {
  mjModel* model = nullptr;
  mjData* data = nullptr;
  std::vector<double> qvel;
  mujoco_xml_run(const std::string& xml, std::vector<double> initial_qvel)
      : qvel(std::move(initial_qvel)) {
    const auto path = std::filesystem::temp_directory_path() /
                      fmt::format("kinevo_mechanism_{}.xml", static_cast<const void*>(this));
    {
      std::ofstream f(path);
      f << xml;
    }
    char error[1000] = "";
    model = mj_loadXML(path.string().c_str(), nullptr, error, sizeof(error));
    std::filesystem::remove(path);
    if (model == nullptr) throw kinevo::io::input_error(std::string("MuJoCo: ") + error);
    data = mj_makeData(model);
  }
  mujoco_xml_run(const mujoco_xml_run&) = delete;
  mujoco_xml_run& operator=(const mujoco_xml_run&) = delete;
  ~mujoco_xml_run() {
    mj_deleteData(data);
    mj_deleteModel(model);
  }
  void run(int steps) {
    mj_resetData(model, data);
    for (std::size_t i = 0; i < qvel.size(); ++i) data->qvel[i] = qvel[i];
    for (int i = 0; i < steps; ++i) mj_step(model, data);
  }
};

// One coordinate after 500 steps in kinevo (GIGSP) and in MuJoCo, a check that the two models
// are the same mechanism. MuJoCo's connect equality is a soft constraint (here solref 0.002 s,
// stiffer than its default 0.02 s, which let the slider-crank drift 5 % in 0.5 s): the two
// agree to its compliance, 2e-6 rad for the four-bar and 4e-3 m for the slider, not to
// round-off.
std::pair<double, double> check_after(const kinevo::mechanics::model& model,
                                      const std::string& coordinate, mujoco_xml_run& mj,
                                      const std::function<double(const mjData*)>& mujoco) {
  const auto& names = model.coordinate_names();
  const auto index = std::find(names.begin(), names.end(), coordinate) - names.begin();
  auto solver = kinevo::mechanics::make_solver("gigsp");
  kinevo::mechanics::simulation_options o;
  o.dt = 1e-3;
  o.t_end = 0.5;
  o.diagnostics = false;
  double value = 0.0;
  kinevo::mechanics::simulate(model, *solver, o, [&](const kinevo::mechanics::step_record& r) {
    value = r.q[index];
    return true;
  });
  mj.run(500);
  return {value, mujoco(mj.data)};
}

void mechanisms() {
  std::printf(
      "One RK4 step (dt = 0.001) of closed-loop mechanisms, microseconds (median of 7 runs, "
      "MuJoCo and kinevo taking turns)\n");
  std::printf("%-14s %4s %4s %10s %12s %10s %13s %10s\n", "model", "n", "m", "MuJoCo",
              "kinevo-gigsp", "kinevo-lm", "gigsp/MuJoCo", "lm/MuJoCo");
  struct entry {
    const char* name;
    kinevo::mechanics::model model;
    std::string xml;
    std::vector<double> qvel;
    std::string coordinate;                       // compared after 0.5 s
    std::function<double(const mjData*)> mujoco;  // the same coordinate from MuJoCo's state
  };
  std::vector<entry> entries;
  entries.push_back({"four-bar",
                     kinevo::mechanics::load_model_from_string(fourbar_kinevo, "fourbar.toml"),
                     fourbar_xml(), fourbar_qvel, "b1_phi",
                     [](const mjData* d) { return std::numbers::pi / 2 + d->qpos[0]; }});
  entries.push_back({"slider-crank",
                     kinevo::mechanics::load_model(KINEVO_EXAMPLES "/slider_crank.toml"),
                     slider_crank_xml(), slider_crank_qvel, "b3_x",
                     [](const mjData* d) { return slider_x0 + d->qpos[2]; }});
  // 2 s: the four-bar (a change-point linkage, 2 + 4 = 4 + 2) reaches its flat, singular
  // configuration at t = 3.04, where kinevo stops it as diverged.
  constexpr int steps = 2000;
  std::vector<std::pair<double, double>> checks;
  for (const entry& e : entries) {
    auto gigsp = kinevo::mechanics::make_solver("gigsp");
    auto lm = kinevo::mechanics::make_solver("lm");
    kinevo::mechanics::simulation_options o;
    o.dt = 1e-3;
    o.t_end = steps * o.dt;
    o.diagnostics = false;
    auto kinevo_run = [&](kinevo::mechanics::acceleration_solver& solver) {
      return [&] {
        const auto r = kinevo::mechanics::simulate(
            e.model, solver, o, [](const kinevo::mechanics::step_record&) { return true; });
        if (r.steps != steps) std::fprintf(stderr, "%s: %s\n", e.name, r.message.c_str());
      };
    };
    mujoco_xml_run mj(e.xml, e.qvel);
    const auto us = paired_us(1, {[&] { mj.run(steps); }, kinevo_run(*gigsp), kinevo_run(*lm)});
    const double t = us[0] / steps, g = us[1] / steps, l = us[2] / steps;
    std::printf("%-14s %4d %4d %10.2f %12.2f %10.2f %13.2f %10.2f\n", e.name, e.model.coordinates(),
                e.model.constraints(), t, g, l, g / t, l / t);
    checks.push_back(check_after(e.model, e.coordinate, mj, e.mujoco));
  }
  for (std::size_t k = 0; k < entries.size(); ++k)
    std::printf("%s, %s at t = 0.5 (the same mechanism?): kinevo %.6f, MuJoCo %.6f\n",
                entries[k].name, entries[k].coordinate.c_str(), checks[k].first, checks[k].second);
}

// One program alone, for a profiler: `steps` RK4 steps of the model (a chain's N, "four-bar" or
// "slider-crank") by kinevo with `solver`, or by MuJoCo when `solver` is "mujoco". Only the steps
// are instrumented under callgrind (--instr-atstart=no).
int profile(const std::string& which, const std::string& solver_name, int steps) {
  const bool chain = which != "four-bar" && which != "slider-crank";
  if (solver_name == "mujoco") {
    if (chain) {
      mujoco_chain mj(std::atoi(which.c_str()));
      if (mj.model == nullptr) return 1;
      CALLGRIND_START_INSTRUMENTATION;
      mj.run(steps);
      CALLGRIND_STOP_INSTRUMENTATION;
    } else {
      mujoco_xml_run mj(which == "four-bar" ? fourbar_xml() : slider_crank_xml(),
                        which == "four-bar" ? fourbar_qvel : slider_crank_qvel);
      CALLGRIND_START_INSTRUMENTATION;
      mj.run(steps);
      CALLGRIND_STOP_INSTRUMENTATION;
    }
    std::printf("%d MuJoCo steps\n", steps);
    return 0;
  }
  const auto model = [&] {
    if (which == "four-bar")
      return kinevo::mechanics::load_model_from_string(fourbar_kinevo, "fourbar.toml");
    if (which == "slider-crank")
      return kinevo::mechanics::load_model(KINEVO_EXAMPLES "/slider_crank.toml");
    kinevo::mechanics::chain_options c;
    c.links = std::atoi(which.c_str());
    return kinevo::mechanics::load_model_from_string(kinevo::mechanics::chain_model_text(c),
                                                     "chain");
  }();
  auto solver = kinevo::mechanics::make_solver(solver_name);
  kinevo::mechanics::simulation_options o;
  o.dt = 1e-3;
  o.t_end = steps * o.dt;
  o.diagnostics = false;
  CALLGRIND_START_INSTRUMENTATION;
  const auto r = kinevo::mechanics::simulate(
      model, *solver, o, [](const kinevo::mechanics::step_record&) { return true; });
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%lld steps: %s\n", static_cast<long long>(r.steps), r.message.c_str());
  return r.steps == steps ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "mechanisms") {
    try {
      mechanisms();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "compare_mujoco: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (argc == 5 && std::string(argv[1]) == "profile") {
    try {
      return profile(argv[2], argv[3], std::atoi(argv[4]));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "compare_mujoco: %s\n", e.what());
      return 1;
    }
  }
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {2, 10, 50, 90, 200};
  std::printf(
      "One RK4 step of an N-link pendulum chain, microseconds (median of 7 runs, "
      "MuJoCo and kinevo taking turns)\n");
  std::printf("%6s %12s %12s %12s %12s %12s\n", "N", "MuJoCo", "kinevo-gigsp", "kinevo-lm",
              "gigsp/MuJoCo", "lm/MuJoCo");
  for (int links : sizes) {
    const int steps = links >= 200 ? 200 : (links >= 50 ? 1000 : 5000);
    kinevo::mechanics::chain_options c;
    c.links = links;
    const auto model =
        kinevo::mechanics::load_model_from_string(kinevo::mechanics::chain_model_text(c), "chain");
    auto gigsp = kinevo::mechanics::make_solver("gigsp");
    auto lm = kinevo::mechanics::make_solver("lm");
    kinevo::mechanics::simulation_options o;
    o.dt = 1e-3;
    o.t_end = steps * o.dt;
    o.diagnostics = false;
    auto kinevo_run = [&](kinevo::mechanics::acceleration_solver& solver) {
      return [&] {
        const auto r = kinevo::mechanics::simulate(
            model, solver, o, [](const kinevo::mechanics::step_record&) { return true; });
        if (r.steps != steps) std::fprintf(stderr, "N = %d: %s\n", links, r.message.c_str());
      };
    };
    mujoco_chain mj(links);
    std::vector<std::function<void()>> runs{kinevo_run(*gigsp), kinevo_run(*lm)};
    if (mj.model != nullptr) runs.insert(runs.begin(), [&] { mj.run(steps); });
    const auto us = paired_us(1, runs);
    const std::size_t k = mj.model != nullptr ? 1 : 0;
    const double g = us[k] / steps;
    const double l = us[k + 1] / steps;
    if (k == 1) {
      const double t = us[0] / steps;
      std::printf("%6d %12.2f %12.2f %12.2f %12.2f %12.2f\n", links, t, g, l, g / t, l / t);
    } else {
      std::printf("%6d %12s %12.2f %12.2f %12s %12s\n", links, "n/a", g, l, "-", "-");
    }
  }
  return 0;
}
