// Time per analysis point (position, velocity and acceleration of every output) of the
// single-loop analysers RESC11 (RRRR), RESC12 (RPRR), RESC13 (RRRP) and of the shovel chain
// (RESC12 driving RESC11). Angeles et al., Diseño cinemático de maquinaria, paper "Software para
// el análisis digital de sistemas mecánicos", quotes 580 operations per position on an Apple IIe.
// Run by hand from build/ (the shovel file is found from this source path, relative there):
// cd build && ./bench/bench_loop_analysis; figures in docs/loop-analysis.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "kinevo/analysis/loop_chain.hpp"
#include "kinevo/analysis/loop_chain_file.hpp"
#include "kinevo/analysis/loop_motion.hpp"
#include "kinevo/analysis/rprr_loop.hpp"
#include "kinevo/analysis/rrrp_loop.hpp"
#include "kinevo/analysis/rrrr_loop.hpp"

namespace {

using namespace kinevo::analysis;

// 1,000 inputs cycled through, so that no branch predictor learns a single point.
std::vector<motion_sample> inputs(double from, double to) {
  std::vector<motion_sample> v;
  for (int k = 0; k < 1000; ++k) {
    const double x = from + (to - from) * k / 999.0;
    v.push_back({0.0, x, 1.3, -0.4});
  }
  return v;
}

void run(benchmark::State& state, const planar_loop& loop, const std::vector<motion_sample>& in) {
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(loop.state_at(in[k]));
    k = k + 1 == in.size() ? 0 : k + 1;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_rrrr_point(benchmark::State& state) {
  run(state, rrrr_loop({4.0, 1.0, 3.5, 3.0, 1.2, 0.3, 1}), inputs(-3.1, 3.1));
}
void BM_rprr_point(benchmark::State& state) {
  run(state, rprr_loop({2.5, 1.2, 1}), inputs(1.4, 3.6));
}
void BM_rrrp_point(benchmark::State& state) {
  run(state, rrrp_loop({0.3, 1.0, 2.5, 1}), inputs(-3.1, 3.1));
}

// The shovel chain over its 101-point motion: time per point of the whole analysis (both
// loops, the result's bookkeeping included).
void BM_shovel_chain_point(benchmark::State& state) {
  const chain_file f = read_chain_file(std::filesystem::path(__FILE__).parent_path().parent_path() /
                                       "examples" / "shovel_actuator.toml");
  const auto motion = sample_motion(f.motion, "motion");
  for (auto _ : state) benchmark::DoNotOptimize(analyse_chain(f.chain, motion));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(motion.size()));
}

BENCHMARK(BM_rrrr_point);
BENCHMARK(BM_rprr_point);
BENCHMARK(BM_rrrp_point);
BENCHMARK(BM_shovel_chain_point);

}  // namespace

BENCHMARK_MAIN();
