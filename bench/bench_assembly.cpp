// Assembly timings (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, section
// 4.3: penalty + DFP quasi-Newton, then Gauss-Newton): Haug's four-bar and pendulum chains of
// N = 10, 25, 50, 100, 200 links (n = 2N coordinates, m = N rods) from a start with every
// coordinate moved by about 0.1. Dense Phi_q and a dense n x n inverse-Hessian estimate.
// Counters: DFP iterations, Gauss-Newton corrections, penalty values. Also Gauss-Newton alone
// for comparison. Run by hand (from build/, the four-bar is found beside this file):
// build/bench/bench_assembly.
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "kinevo/mechanics/kinematics/assembly.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace {

using namespace kinevo::mechanics;

const model& chain(int links) {
  static std::map<int, model> cache;
  auto it = cache.find(links);
  if (it == cache.end()) {
    chain_options o;
    o.links = links;
    it = cache.emplace(links, load_model_from_string(chain_model_text(o), "chain.toml")).first;
  }
  return it->second;
}

const model& haug_fourbar() {
  static const model m = load_model(std::filesystem::path(__FILE__).parent_path().parent_path() /
                                    "examples" / "haug_fourbar.toml");
  return m;
}

Eigen::VectorXd perturbed(const Eigen::VectorXd& q) {
  Eigen::VectorXd p = q;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    p[i] += 0.1 * ((i % 2 == 0) ? 1.0 : -1.0) * (0.8 + 0.4 * std::fmod(0.37 * double(i), 1.0));
  }
  return p;
}

void run(benchmark::State& state, const model& m, const assembly_options& options = {}) {
  const Eigen::VectorXd q0 = perturbed(m.initial_positions());
  const Eigen::VectorXd qd0 = Eigen::VectorXd::Zero(m.coordinates());
  assembly_result r;
  for (auto _ : state) {
    r = assemble(m, q0, qd0, 0.0, options);
    benchmark::DoNotOptimize(r.q.data());
  }
  if (!r.converged) {
    // A benchmark of an assembly that failed is no figure: reported as the run's error.
    state.SkipWithError(r.message.c_str());
    return;
  }
  state.counters["n"] = m.coordinates();
  state.counters["dfp_iterations"] = r.quasi_newton_iterations;
  state.counters["newton"] = r.newton_iterations;
  state.counters["penalties"] = r.penalty_stages;
  state.counters["phi_after"] = r.violation_after;
}

void BM_AssembleHaugFourBar(benchmark::State& state) {
  run(state, haug_fourbar());
}
BENCHMARK(BM_AssembleHaugFourBar)->Unit(benchmark::kMillisecond);

void BM_AssembleChain(benchmark::State& state) {
  run(state, chain(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_AssembleChain)
    ->Arg(10)
    ->Arg(25)
    ->Arg(50)
    ->Arg(100)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond);

// Gauss-Newton alone (a penalty tolerance above the start's violation skips the penalty stage):
// what the DFP stage costs on a start this close, and what it buys (a poor estimate).
void BM_AssembleChainNewtonOnly(benchmark::State& state) {
  assembly_options o;
  o.penalty_tolerance = 1e3;
  run(state, chain(static_cast<int>(state.range(0))), o);
}
BENCHMARK(BM_AssembleChainNewtonOnly)->Arg(10)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
