// Gauss' principle by the island GA: cost of the batch objective, of a cold solve (the study's
// t = 0) and of warm solves along a motion, for the double pendulum and a 10-link chain of
// particles, with 1 and 2 islands (threads; run the CLI under mpiexec for ranks). The per-model
// table (every example, chains, pagmo beside) is bench_gauss_models. Run by hand:
//   build/bench/bench_gauss --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "kinevo/studies/double_pendulum_study.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/gauss_objective.hpp"

namespace {

using namespace kinevo::mechanics;
using namespace kinevo::gauss;
using namespace kinevo::studies;

// A planar chain of `links` particles (unit masses) on unit rods from a fixed pivot, gravity
// along +y: M = I (2N), rod k: ((p_k - p_k-1)^2 - 1) / 2 = 0, A and b as for eqs. 5.15-5.16.
struct chain {
  std::vector<std::string> names;
  constrained_system at(double phase) const {
    const int n = static_cast<int>(names.size());
    constrained_system s;
    s.mass = Eigen::MatrixXd::Identity(2 * n, 2 * n);
    s.mass_is_diagonal = true;
    s.force = Eigen::VectorXd::Zero(2 * n);
    s.jacobian = Eigen::MatrixXd::Zero(n, 2 * n);
    s.rhs.resize(n);
    Eigen::Vector2d p_prev(0.0, 0.0), v_prev(0.0, 0.0), p, v;
    for (int k = 0; k < n; ++k) {
      const double th = 0.3 * std::sin(phase + 0.5 * k);
      const double w = 2.0 + 0.1 * k;
      const Eigen::Vector2d d(std::sin(th), std::cos(th));
      p = p_prev + d;
      v = v_prev + w * Eigen::Vector2d(std::cos(th), -std::sin(th));
      s.force(2 * k + 1) = 9.81;
      s.jacobian.block(k, 2 * k, 1, 2) = d.transpose();
      if (k > 0) s.jacobian.block(k, 2 * k - 2, 1, 2) = -d.transpose();
      s.rhs(k) = -(v - v_prev).squaredNorm();
      p_prev = p;
      v_prev = v;
    }
    s.constraint_names = names;
    return s;
  }
};

chain make_chain(int links) {
  chain c;
  for (int k = 0; k < links; ++k) c.names.push_back(std::string("rod").append(std::to_string(k)));
  return c;
}

void BM_objective_batch(benchmark::State& state) {
  const int links = static_cast<int>(state.range(0));
  const chain c = make_chain(links);
  const auto s = c.at(0.1);
  const auto t = gauss_terms::from_system(s, Eigen::VectorXd::Constant(links, 3e4),
                                          Eigen::VectorXd::Zero(links));
  const int n = 2 * links;
  const gauss_objective obj(t, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Ones(n),
                            gauss_objective::principal_axes(t));
  const Eigen::MatrixXd x = Eigen::MatrixXd::Random(n, 100);
  Eigen::VectorXd v(100);
  for (auto _ : state) {
    obj.evaluate(x, v);
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_objective_batch)->Arg(2)->Arg(10);

void BM_cold_solve_double_pendulum(benchmark::State& state) {
  gauss_ga_options o = gauss_ga_preset(state.range(1) == 0 ? "default" : "thesis");
  o.islands.islands = static_cast<int>(state.range(0));
  o.warm_start = false;
  gauss_ga_solver solver(o);
  const auto s = double_pendulum_system(double_pendulum_state{});
  double err = 0.0;
  for (auto _ : state) {
    const auto r = solver.solve(s);
    err = (r.acceleration - double_pendulum_exact_t0()).cwiseAbs().maxCoeff();
  }
  state.counters["max_abs_error"] = err;
}
BENCHMARK(BM_cold_solve_double_pendulum)
    ->ArgNames({"islands", "thesis"})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond);

// One "time step" = 4 warm solves at slowly changing states (as the RK4 stages of a step).
template <class system_at>
void warm_steps(benchmark::State& state, const system_at& at) {
  gauss_ga_options o = gauss_ga_preset("default");
  o.islands.islands = static_cast<int>(state.range(0));
  gauss_ga_solver solver(o);
  double phase = 0.0;
  (void)solver.solve(at(phase));  // cold start outside the timing
  long long runs = 0, solves = 0;
  for (auto _ : state) {
    for (int stage = 0; stage < 4; ++stage) {
      phase += stage == 2 ? 0.0 : 2.5e-4;
      const auto r = solver.solve(at(phase));
      runs += r.runs;
      ++solves;
    }
  }
  state.counters["runs_per_solve"] = static_cast<double>(runs) / static_cast<double>(solves);
}

void BM_warm_step_double_pendulum(benchmark::State& state) {
  warm_steps(state, [](double phase) {
    double_pendulum_state st;
    st.x1 = std::sin(phase);
    st.y1 = std::cos(phase);
    st.x2 = st.x1 + std::sin(2.0 * phase);
    st.y2 = st.y1 + std::cos(2.0 * phase);
    st.vx1 = std::numbers::pi * std::cos(phase);
    st.vy1 = -std::numbers::pi * std::sin(phase);
    st.vx2 = st.vx1 + std::numbers::pi * std::cos(2.0 * phase);
    st.vy2 = st.vy1 - std::numbers::pi * std::sin(2.0 * phase);
    return double_pendulum_system(st);
  });
}
BENCHMARK(BM_warm_step_double_pendulum)
    ->ArgName("islands")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);

void BM_warm_step_chain10(benchmark::State& state) {
  const chain c = make_chain(10);
  warm_steps(state, [&c](double phase) { return c.at(phase); });
}
BENCHMARK(BM_warm_step_chain10)->ArgName("islands")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
