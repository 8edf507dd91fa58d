// Time per synthesis on the source document's examples: the 19-point RSSR (Householder least
// squares; island GA alone and GA + Householder Gauss-Newton), the 5-point crank-constrained
// four-bar (interior penalty; island GA alone and refined), the four-bar with an output rocker and
// a turning coupler, and the 17-pose RR dyad from 100 random starts. The counters give the
// quality reached (rms error, ||e||). Run by hand: build/bench/bench_synthesis.
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "kinevo/synthesis/linkages/crank_constrained.hpp"
#include "kinevo/synthesis/linkages/ga_synthesis.hpp"
#include "kinevo/synthesis/linkages/rr_dyad.hpp"
#include "kinevo/synthesis/linkages/rssr.hpp"

namespace ks = kinevo::synthesis;

namespace {

constexpr double deg = std::numbers::pi / 180.0;

// Angeles et al., Diseño cinemático de maquinaria (1984), Householder paper, Table 1.
void rssr_table(std::vector<double>& psi, std::vector<double>& phi) {
  const double out[19] = {0.0,  2.4,  5.1,  8.2,  11.5, 15.2, 19.1, 23.3, 27.7, 32.3,
                          37.2, 42.3, 47.5, 53.0, 58.7, 64.6, 70.9, 78.0, 90.0};
  for (int i = 0; i < 19; ++i) {
    psi.push_back(5.0 * i * deg);
    phi.push_back(out[i] * deg);
  }
}

// Grashof paper, Table 1.
void fourbar_table(std::vector<double>& psi, std::vector<double>& phi) {
  psi = {140 * deg, 130 * deg, 110 * deg, 100 * deg, 90 * deg};
  phi = {80 * deg, 74 * deg, 64 * deg, 58 * deg, 50 * deg};
}

// Householder paper, Table 3.
std::vector<ks::pose> dyad_poses() {
  const double t[17][3] = {
      {7.880, -0.260, 313.720}, {8.490, -7.290, 332.330}, {7.680, 2.820, 349.930},
      {6.300, 4.210, 353.180},  {4.580, 4.930, 359.870},  {2.740, 5.010, 355.840},
      {1.010, 4.410, 356.300},  {0.259, 3.880, 3.900},    {-0.400, -3.090, 3.670},
      {0.250, -3.760, 3.690},   {1.000, -4.290, 4.150},   {2.730, -4.890, 5.120},
      {4.360, -4.830, 6.810},   {6.280, -4.090, 10.000},  {7.660, -2.700, 13.000},
      {8.440, -0.610, 18.000},  {7.790, -2.690, 46.270}};
  std::vector<ks::pose> p;
  for (const auto& r : t) p.push_back({r[0], r[1], r[2] * deg});
  return p;
}

void BM_rssr_19_points(benchmark::State& state) {
  std::vector<double> psi, phi;
  rssr_table(psi, phi);
  for (auto _ : state) {
    const auto fit = ks::rssr_least_squares(psi, phi, 90 * deg);
    auto errors = ks::rssr_errors(fit.k, 90 * deg, psi, phi);
    auto dims = ks::rssr_dimensions_from_k(fit.k, 90 * deg);
    benchmark::DoNotOptimize(errors.data());
    benchmark::DoNotOptimize(dims);
  }
}
BENCHMARK(BM_rssr_19_points)->Unit(benchmark::kMicrosecond);

// Argument 0: the GA alone; 1: GA + Householder Gauss-Newton (the default).
void BM_rssr_19_points_ga(benchmark::State& state) {
  std::vector<double> psi, phi;
  rssr_table(psi, phi);
  ks::ga_synthesis_options g;
  g.refine = state.range(0) != 0;
  ks::ga_rssr_result r;
  for (auto _ : state) {
    r = ks::ga_rssr(psi, phi, 90 * deg, g);
    benchmark::DoNotOptimize(r.fit.k.data());
  }
  double sum = 0.0, worst = 0.0;
  for (const double e : ks::rssr_errors(r.fit.k, 90 * deg, psi, phi)) {
    sum += e * e;
    worst = std::max(worst, std::abs(e));
  }
  state.counters["rms_deg"] = std::sqrt(sum / static_cast<double>(psi.size())) / deg;
  state.counters["max_err_deg"] = worst / deg;
  state.counters["residual"] = r.fit.residual_norm;
}
BENCHMARK(BM_rssr_19_points_ga)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Times `run(psi, phi)` (returning a freudenstein_fit) on Table 1; reports the ||e|| reached.
template <class Run>
void time_fourbar(benchmark::State& state, Run run) {
  std::vector<double> psi, phi;
  fourbar_table(psi, phi);
  double residual = 0.0;
  for (auto _ : state) {
    residual = run(psi, phi).residual_norm;
    benchmark::DoNotOptimize(residual);
  }
  state.counters["residual"] = residual;
}

void BM_fourbar_crank_penalty(benchmark::State& state) {
  ks::crank_constrained_options o;
  o.random_starts = static_cast<int>(state.range(0));
  time_fourbar(state, [&](const auto& psi, const auto& phi) {
    return ks::crank_constrained_least_squares(psi, phi, o).fit;
  });
}
// 0 random starts: the source document's single path (unconstrained optimum -> feasible -> stages);
// 30 is the default multi-start.
BENCHMARK(BM_fourbar_crank_penalty)->Arg(0)->Arg(30)->Unit(benchmark::kMillisecond);

// Argument 0: the GA alone; 1: GA + interior penalty from its best point (kept when better).
void BM_fourbar_crank_ga(benchmark::State& state) {
  ks::crank_constrained_options o;
  ks::ga_synthesis_options g;
  g.refine = state.range(0) != 0;
  time_fourbar(state, [&](const auto& psi, const auto& phi) {
    return ks::ga_crank_constrained(psi, phi, o, g).fit;
  });
}
BENCHMARK(BM_fourbar_crank_ga)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// --output rocker --coupler crank by the penalty method (2 branches x 35 starts).
void BM_fourbar_rocker_coupler_crank_penalty(benchmark::State& state) {
  ks::crank_constrained_options o;
  o.crank = ks::crank_requirement::none;
  o.output_rocker = true;
  o.coupler = ks::coupler_requirement::crank;
  time_fourbar(state, [&](const auto& psi, const auto& phi) {
    return ks::crank_constrained_least_squares(psi, phi, o).fit;
  });
}
BENCHMARK(BM_fourbar_rocker_coupler_crank_penalty)->Unit(benchmark::kMillisecond);

void BM_dyad_17_poses_100_starts(benchmark::State& state) {
  const auto poses = dyad_poses();
  ks::dyad_options o;
  o.starts = 100;
  for (auto _ : state) {
    auto s = ks::dyad_synthesis(poses, o);
    benchmark::DoNotOptimize(s.data());
  }
}
BENCHMARK(BM_dyad_17_poses_100_starts)->Unit(benchmark::kMillisecond);

void BM_dyad_17_poses_ga(benchmark::State& state) {
  const auto poses = dyad_poses();
  ks::ga_synthesis_options g;
  for (auto _ : state) {
    auto s = ks::ga_dyad(poses, g);
    benchmark::DoNotOptimize(s.solution.error);
  }
}
BENCHMARK(BM_dyad_17_poses_ga)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
