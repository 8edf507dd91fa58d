// Side-by-side timing of one RK4 step of an N-link planar pendulum chain: kinevo (particles
// with distance constraints, GIGSP or LM, n = 2N coordinates, m = N constraints) against
// MuJoCo (hinge joints, minimal coordinates, its RK4 integrator) on the same chain,
// N = 2, 10, 50, 90, 200 (or the N given as arguments). Medians of 7 repeats, the three
// taking turns within each repeat. Run by hand: build/bench/compare_mujoco [N...].
// `compare_mujoco profile N SOLVER STEPS` runs kinevo alone, for a profiler.
// MuJoCo 2.2's XML reader refuses bodies nested about 100 deep, so it has no N = 200 figure.
#include <fmt/format.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "profile") {
    // kinevo alone, for a profiler: profile N SOLVER STEPS.
    kinevo::mechanics::chain_options c;
    c.links = std::atoi(argv[2]);
    const auto model =
        kinevo::mechanics::load_model_from_string(kinevo::mechanics::chain_model_text(c), "chain");
    auto solver = kinevo::mechanics::make_solver(argv[3]);
    kinevo::mechanics::simulation_options o;
    o.dt = 1e-3;
    o.t_end = std::atoi(argv[4]) * o.dt;
    o.diagnostics = false;
    const auto r = kinevo::mechanics::simulate(
        model, *solver, o, [](const kinevo::mechanics::step_record&) { return true; });
    std::printf("%lld steps: %s\n", static_cast<long long>(r.steps), r.message.c_str());
    return 0;
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
