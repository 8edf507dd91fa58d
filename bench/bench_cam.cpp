// Time per cam design on the three examples of the cam papers (Angeles et al., Diseño cinemático
// de maquinaria): the analysis of one design (3600 cam angles: pressure angle, pitch curve and its
// curvature, roller profile, section properties) and one full optimisation, for the translating
// roller, oscillating roller and flat-face followers. Run by hand: build/bench/bench_cam.
#include <benchmark/benchmark.h>

#include <numbers>

#include "kinevo/synthesis/cams/cam_flat_face.hpp"
#include "kinevo/synthesis/cams/cam_oscillating_roller.hpp"
#include "kinevo/synthesis/cams/cam_translating_roller.hpp"

namespace ks = kinevo::synthesis;

namespace {

constexpr double deg = std::numbers::pi / 180.0;

ks::cam_motion_programme programme(double rise, double fall, double h) {
  using K = ks::cam_phase_kind;
  return ks::cam_motion_programme({{K::dwell, 36 * deg, 0.0},
                                   {K::rise, rise * deg, h},
                                   {K::dwell, 144 * deg, 0.0},
                                   {K::fall, fall * deg, h}});
}

void BM_translating_analysis(benchmark::State& state) {
  const auto p = programme(72, 108, 50.0);
  const ks::translating_roller_options o;
  const ks::translating_roller_design d{57.334448, 33.102059};
  for (auto _ : state) benchmark::DoNotOptimize(ks::analyse_translating_roller(p, d, o));
}
BENCHMARK(BM_translating_analysis)->Unit(benchmark::kMillisecond);

// The pressure-angle optimum (wedge), then with a roller radius that makes the curvature bound
// active (direction scan and radius bisection).
void BM_translating_optimisation(benchmark::State& state) {
  const auto p = programme(72, 108, 50.0);
  ks::translating_roller_options o;
  o.min_roller_radius = state.range(0);
  for (auto _ : state) {
    const auto r = ks::optimise_translating_roller(p, o);
    benchmark::DoNotOptimize(ks::analyse_translating_roller(p, r.design, o));
  }
}
BENCHMARK(BM_translating_optimisation)->Arg(0)->Arg(40)->Unit(benchmark::kMillisecond);

void BM_oscillating_analysis(benchmark::State& state) {
  const auto p = programme(72, 108, 45 * deg);
  const ks::oscillating_roller_options o;
  const ks::oscillating_roller_design d{0.3679, 45.24 * deg};
  for (auto _ : state) benchmark::DoNotOptimize(ks::analyse_oscillating_roller(p, d, o));
}
BENCHMARK(BM_oscillating_analysis)->Unit(benchmark::kMillisecond);

void BM_oscillating_optimisation(benchmark::State& state) {
  const auto p = programme(72, 108, 45 * deg);
  const ks::oscillating_roller_options o;
  for (auto _ : state) {
    const auto r = ks::optimise_oscillating_roller(p, o);
    benchmark::DoNotOptimize(ks::analyse_oscillating_roller(p, r.design, o));
  }
}
BENCHMARK(BM_oscillating_optimisation)->Unit(benchmark::kMillisecond);

void BM_flat_face_analysis(benchmark::State& state) {
  const auto p = programme(108, 72, 5.0);
  const ks::flat_face_options o;
  for (auto _ : state) benchmark::DoNotOptimize(ks::analyse_flat_face(p, 15.915494, o));
}
BENCHMARK(BM_flat_face_analysis)->Unit(benchmark::kMillisecond);

void BM_flat_face_design(benchmark::State& state) {
  const auto p = programme(108, 72, 5.0);
  const ks::flat_face_options o;
  for (auto _ : state) {
    const auto d = ks::design_flat_face(p, o);
    benchmark::DoNotOptimize(ks::analyse_flat_face(p, d.base_radius, o));
  }
}
BENCHMARK(BM_flat_face_design)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
