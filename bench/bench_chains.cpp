// Time per analysis point of the spatial closed chains (analysis/closed_chain.hpp): the 7R and
// RSRC examples of Angeles et al., Diseño cinemático de maquinaria (the papers quote 580
// operations per position, 556 with a prismatic pair, on an Apple IIe), and the 6R hexflex
// guidance. A point is a continuation step: Newton from the previous point of the path.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "kinevo/analysis/example_chains.hpp"

namespace {

using namespace kinevo::analysis;
constexpr double deg = std::numbers::pi / 180.0;

// A path's regular points as (input, solution) pairs, solved once; each benchmark iteration
// solves point k from the solution at point k - 1 (a 5 deg continuation step).
struct path_fixture {
  closed_chain chain;
  std::vector<input_sample> inputs;
  std::vector<Eigen::VectorXd> solutions;
};

path_fixture make_path(closed_chain chain, double from, double to, Eigen::VectorXd start) {
  path_fixture f{std::move(chain), {}, {}};
  for (double x = from; x <= to + 1e-9; x += 5) f.inputs.push_back({0, x * deg, 1, 0});
  chain_newton_options o;
  o.skip_singular = true;
  for (const auto& p : analyze_closed_chain(f.chain, f.inputs, start, o).points)
    f.solutions.push_back(p.q);
  return f;
}

void run_path(benchmark::State& state, const path_fixture& f, bool rates) {
  chain_newton_options o;
  o.rates = rates;
  std::size_t k = 1;
  long iterations = 0;
  for (auto _ : state) {
    const chain_point p = solve_closed_chain(f.chain, f.inputs[k], f.solutions[k - 1], o);
    benchmark::DoNotOptimize(p.q.data());
    iterations += p.iterations;
    k = k + 1 < f.inputs.size() ? k + 1 : 1;
  }
  state.counters["newton_iterations"] =
      benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
}

const path_fixture& seven_r_path() {
  // 140..175 deg on the symmetric branch: regular points only (singular at 138.59 and 180 deg).
  static const path_fixture f = [] {
    return make_path(seven_r_example(), 140, 175, seven_r_branch(140 * deg));
  }();
  return f;
}

const path_fixture& rsrc_path() {
  static const path_fixture f = make_path(rsrc_example(), 0, 360, rsrc_start());
  return f;
}

void BM_SevenRPosition(benchmark::State& s) {
  run_path(s, seven_r_path(), false);
}
void BM_SevenRPositionVelocityAcceleration(benchmark::State& s) {
  run_path(s, seven_r_path(), true);
}
void BM_RsrcPosition(benchmark::State& s) {
  run_path(s, rsrc_path(), false);
}
void BM_RsrcPositionVelocityAcceleration(benchmark::State& s) {
  run_path(s, rsrc_path(), true);
}

void BM_HexflexGuidancePoint(benchmark::State& state) {
  const guidance_chain g = hexflex_example();
  const std::vector<guidance_target> t = {hexflex_target(0.1)};
  const Eigen::VectorXd q = hexflex_start();
  for (auto _ : state) {
    const chain_path_result r = analyze_guidance(g, t, q, {});
    benchmark::DoNotOptimize(r.points.data());
  }
}

}  // namespace

BENCHMARK(BM_SevenRPosition);
BENCHMARK(BM_SevenRPositionVelocityAcceleration);
BENCHMARK(BM_RsrcPosition);
BENCHMARK(BM_RsrcPositionVelocityAcceleration);
BENCHMARK(BM_HexflexGuidancePoint);
BENCHMARK_MAIN();
