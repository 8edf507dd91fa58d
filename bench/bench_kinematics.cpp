// Kinematic analysis timings (Haug, Computer-Aided Kinematics and Dynamics of Mechanical
// Systems, sec. 4.5): one Newton-Raphson iteration (Phi, dense Phi_q, full-pivoting LU, solve)
// and one kinematic time step (Newton-Raphson from the Taylor prediction, velocity and
// acceleration from one more LU) for Haug's four-bar (12 coordinates) and for pendulum chains
// of N = 5, 10, 20, 50 links with each particle's x driven (n = 2N coordinates).
// Run by hand: build/bench/bench_kinematics; figures in docs/kinematics.md.
#include <benchmark/benchmark.h>

#include <Eigen/LU>
#include <filesystem>
#include <map>
#include <string>

#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace {

using namespace kinevo::mechanics;

const model& fourbar() {
  static const model m = load_model(std::filesystem::path(__FILE__).parent_path().parent_path() /
                                    "examples" / "haug_fourbar.toml");
  return m;
}

// `kinevo model chain` with x_k = k l sin(theta0) + 0.2 k l (1 - cos t) driven: kinematically
// determined, each y from its rod.
const model& driven_chain(int links) {
  static std::map<int, model> cache;
  auto it = cache.find(links);
  if (it == cache.end()) {
    chain_options c;
    c.links = links;
    std::string text = chain_model_text(c);
    for (int k = 1; k <= links; ++k) {
      const std::string ks = std::to_string(k);
      text += "\n[[joint]]\ntype = \"driver\"\nname = \"drive" + ks + "\"\ncoordinate = \"p" + ks +
              "_x\"\nvalue = \"" + ks + "*l*sin(theta0) + 0.2*" + ks + "*l*(1 - cos(t))\"\n";
    }
    it = cache.emplace(links, load_model_from_string(text, "driven_chain.toml")).first;
  }
  return it->second;
}

const model& model_for(const benchmark::State& state) {
  return state.range(0) == 0 ? fourbar() : driven_chain(static_cast<int>(state.range(0)));
}

// One iteration of Phi_q dq = -Phi at a perturbed position.
void BM_NewtonIteration(benchmark::State& state) {
  const model& m = model_for(state);
  const Eigen::VectorXd q = m.initial_positions().array() + 1e-3;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(m.coordinates(), m.coordinates());
  for (auto _ : state) {
    const Eigen::VectorXd phi = m.position_violation(q, 0.1);
    lu.compute(m.position_jacobian(q, 0.1));
    const Eigen::VectorXd dq = lu.solve(-phi);
    benchmark::DoNotOptimize(dq.data());
  }
  state.counters["n"] = m.coordinates();
}
BENCHMARK(BM_NewtonIteration)->Arg(0)->Arg(5)->Arg(10)->Arg(20)->Arg(50);

// Whole analyses of 100 steps of dt = 0.01; the time per step is the counter `per_step`.
void BM_KinematicStep(benchmark::State& state) {
  const model& m = model_for(state);
  kinematic_analysis_options o;
  o.t_end = 0.99;
  o.dt = 0.01;
  long long iterations = 0, steps = 0;
  for (auto _ : state) {
    const kinematic_analysis_result r = analyse_kinematics(m, o);
    if (!r.completed) state.SkipWithError(r.message.c_str());
    iterations += r.total_iterations;
    steps += r.steps;
    benchmark::DoNotOptimize(r.rows.data());
  }
  state.counters["n"] = m.coordinates();
  // Seconds per analysed step (steps over the run's time, inverted).
  state.counters["per_step"] = benchmark::Counter(
      static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["nr_per_step"] =
      steps > 0 ? static_cast<double>(iterations) / static_cast<double>(steps) : 0.0;
  state.SetItemsProcessed(steps);
}
BENCHMARK(BM_KinematicStep)
    ->Arg(0)
    ->Arg(5)
    ->Arg(10)
    ->Arg(20)
    ->Arg(50)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
