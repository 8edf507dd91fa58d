// Side-by-side timing of one RK4 step of an N-link planar pendulum chain: kinevo (particles
// with distance constraints, GIGSP or LM, n = 2N coordinates, m = N constraints) against
// MuJoCo (hinge joints, minimal coordinates, its RK4 integrator) on the same chain,
// N = 2, 10, 50, 90, 200. Medians of 7 repeats. Run by hand: build-*/bench/compare_mujoco.
// MuJoCo 2.2's XML reader refuses bodies nested about 100 deep, so it has no N = 200 figure.
#include <fmt/format.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "kinevo/mechanics/chain_model.hpp"
#include "kinevo/mechanics/model.hpp"
#include "kinevo/mechanics/simulation.hpp"
#include "kinevo/mechanics/solver_factory.hpp"

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

double mujoco_step_us(int links, int steps) {
  const auto path =
      std::filesystem::temp_directory_path() / fmt::format("kinevo_chain_{}.xml", links);
  {
    std::ofstream f(path);
    f << mujoco_chain_xml(links);
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.string().c_str(), nullptr, error, sizeof(error));
  std::filesystem::remove(path);
  if (m == nullptr) {
    std::fprintf(stderr, "MuJoCo, N = %d: %s\n", links, error);
    return -1.0;
  }
  mjData* d = mj_makeData(m);
  std::vector<double> samples;
  for (int rep = 0; rep < 7; ++rep) {
    mj_resetData(m, d);
    d->qpos[0] = 30.0 * 3.14159265358979323846 / 180.0;
    const auto t0 = clock_type::now();
    for (int i = 0; i < steps; ++i) mj_step(m, d);
    samples.push_back(std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() /
                      steps);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return median(samples);
}

double kinevo_step_us(int links, const std::string& solver_name, int steps) {
  kinevo::mechanics::chain_options c;
  c.links = links;
  const auto model =
      kinevo::mechanics::load_model_from_string(kinevo::mechanics::chain_model_text(c), "chain");
  auto solver = kinevo::mechanics::make_solver(solver_name);
  kinevo::mechanics::simulation_options o;
  o.dt = 1e-3;
  o.t_end = steps * o.dt;
  o.diagnostics = false;
  std::vector<double> samples;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = clock_type::now();
    const auto r = kinevo::mechanics::simulate(
        model, *solver, o, [](const kinevo::mechanics::step_record&) { return true; });
    samples.push_back(std::chrono::duration<double, std::micro>(clock_type::now() - t0).count() /
                      static_cast<double>(r.steps));
  }
  return median(samples);
}

}  // namespace

int main() {
  std::printf("One RK4 step of an N-link pendulum chain, microseconds (median of 7 runs)\n");
  std::printf("%6s %12s %12s %12s %12s\n", "N", "MuJoCo", "kinevo-gigsp", "kinevo-lm",
              "gigsp/MuJoCo");
  for (int links : {2, 10, 50, 90, 200}) {
    const int steps = links >= 200 ? 200 : (links >= 50 ? 1000 : 5000);
    const double mj = mujoco_step_us(links, steps);
    const double g = kinevo_step_us(links, "gigsp", steps);
    const double l = kinevo_step_us(links, "lm", steps);
    if (mj > 0.0) {
      std::printf("%6d %12.2f %12.2f %12.2f %12.2f\n", links, mj, g, l, g / mj);
    } else {
      std::printf("%6d %12s %12.2f %12.2f %12s\n", links, "n/a", g, l, "-");
    }
  }
  return 0;
}
