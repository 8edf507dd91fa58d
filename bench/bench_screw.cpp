// Time per screw-parameter computation: the worked examples of Angeles et al., Diseño
// cinemático de maquinaria (1984), "Automatic computation of the screw parameters of rigid-body
// motions" Part I (finite, three points) and Part II (instantaneous, three points), and the
// same computations on 10 points. Run by hand: build/bench/bench_screw.
#include <benchmark/benchmark.h>

#include <Eigen/Geometry>
#include <vector>

#include "kinevo/analysis/finite_screw.hpp"
#include "kinevo/analysis/instant_screw.hpp"

namespace an = kinevo::analysis;

namespace {

const std::vector<Eigen::Vector3d> finite_p{{1, 0, 0}, {1, 1, 0}, {2, 1, -1}};
const std::vector<Eigen::Vector3d> finite_q{{2, 0, -1}, {2, 0, 0}, {3, -1, 0}};
const std::vector<Eigen::Vector3d> instant_p{{1, 1, 7}, {4, 7, 1}, {7, 10, 10}};
const std::vector<Eigen::Vector3d> instant_v{{7, -5, 1}, {-5, 4, 4}, {1, -2, 4}};

// n points of a body moved by a screw about (1, 2, 2)/3 through (0.5, -1, 0): positions after
// the displacement (finite) or velocities (instantaneous).
void screw_motion(int n, std::vector<Eigen::Vector3d>& p, std::vector<Eigen::Vector3d>& q,
                  std::vector<Eigen::Vector3d>& v) {
  const Eigen::Vector3d e = Eigen::Vector3d(1, 2, 2) / 3.0, a(0.5, -1, 0);
  const Eigen::Matrix3d r = Eigen::AngleAxisd(1.2, e).toRotationMatrix();
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d x(std::cos(1.0 + i), std::sin(2.3 * i), 0.1 * i - 0.4);
    p.push_back(x);
    q.push_back(a + r * (x - a) + 0.3 * e);
    v.push_back(0.8 * e.cross(x - a) + 0.3 * e);
  }
}

void BM_finite_example(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(an::finite_screw(finite_p, finite_q));
}
BENCHMARK(BM_finite_example);

void BM_instant_example(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(an::instant_screw(instant_p, instant_v));
}
BENCHMARK(BM_instant_example);

void BM_finite_10_points(benchmark::State& state) {
  std::vector<Eigen::Vector3d> p, q, v;
  screw_motion(10, p, q, v);
  for (auto _ : state) benchmark::DoNotOptimize(an::finite_screw(p, q));
}
BENCHMARK(BM_finite_10_points);

void BM_instant_10_points(benchmark::State& state) {
  std::vector<Eigen::Vector3d> p, q, v;
  screw_motion(10, p, q, v);
  for (auto _ : state) benchmark::DoNotOptimize(an::instant_screw(p, v));
}
BENCHMARK(BM_instant_10_points);

}  // namespace

BENCHMARK_MAIN();
