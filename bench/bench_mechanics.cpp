// Mechanics timings: (M, f, A, b) of the double pendulum from the compiled tape, one solve of
// each direct solver, and one RK4 step, for pendulum chains of N = 2, 10, 50, 200 links
// (n = 2N coordinates, m = N rods). Run by hand: build-*/bench/bench_mechanics.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>

#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

using namespace kinevo::mechanics;

const model& double_pendulum() {
  // The examples folder beside this source file.
  static const model m = load_model(std::filesystem::path(__FILE__).parent_path().parent_path() /
                                    "examples" / "double_pendulum.toml");
  return m;
}

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

// A moving chain state: the straight chain turning about the origin.
Eigen::VectorXd chain_velocity(const model& m) {
  Eigen::VectorXd qd(m.coordinates());
  for (int k = 0; k < m.coordinates() / 2; ++k) {
    qd[2 * k] = -0.5 * m.initial_positions()[2 * k + 1];
    qd[2 * k + 1] = 0.5 * m.initial_positions()[2 * k];
  }
  return qd;
}

void BM_EvaluateDoublePendulum(benchmark::State& state) {
  const model& m = double_pendulum();
  constrained_system s;
  const Eigen::VectorXd q = m.initial_positions(), qd = m.initial_velocities();
  for (auto _ : state) {
    m.evaluate(q, qd, 0.0, s);
    benchmark::DoNotOptimize(s.rhs.data());
  }
}
BENCHMARK(BM_EvaluateDoublePendulum);

void BM_EvaluateChain(benchmark::State& state) {
  const model& m = chain(static_cast<int>(state.range(0)));
  constrained_system s;
  const Eigen::VectorXd q = m.initial_positions(), qd = chain_velocity(m);
  for (auto _ : state) {
    m.evaluate(q, qd, 0.0, s);
    benchmark::DoNotOptimize(s.rhs.data());
  }
}
BENCHMARK(BM_EvaluateChain)->Arg(2)->Arg(10)->Arg(50)->Arg(200);

void solve_chain(benchmark::State& state, const std::string& name, bool sparse) {
  const model& m = chain(static_cast<int>(state.range(0)));
  const constrained_system s = m.evaluate(m.initial_positions(), chain_velocity(m), 0.0);
  solver_options o;
  o.direct.allow_sparse = sparse;
  auto solver = make_solver(name, o);
  for (auto _ : state) {
    auto r = solver->solve(s);
    benchmark::DoNotOptimize(r.acceleration.data());
  }
}

#define KINEVO_SOLVE_BENCH(label, name, sparse, maxn) \
  void BM_Solve_##label(benchmark::State& state) {    \
    solve_chain(state, name, sparse);                 \
  }                                                   \
  BENCHMARK(BM_Solve_##label)->Arg(2)->Arg(10)->Arg(50)->Arg(maxn)

KINEVO_SOLVE_BENCH(gigsp, "gigsp", true, 200);
KINEVO_SOLVE_BENCH(gigsp_dense, "gigsp", false, 200);
KINEVO_SOLVE_BENCH(lm, "lm", true, 200);
KINEVO_SOLVE_BENCH(uk, "uk", true, 200);
KINEVO_SOLVE_BENCH(sl, "sl", true, 200);
KINEVO_SOLVE_BENCH(kv, "kv", true, 200);

// One RK4 step (four evaluations and solves) without per-step diagnostics, averaged over a
// 0.1 s run at dt = 1e-3.
void rk4_chain(benchmark::State& state, const std::string& name) {
  const model& m = chain(static_cast<int>(state.range(0)));
  auto solver = make_solver(name);
  simulation_options o;
  o.t_end = 0.1;
  o.dt = 1e-3;
  o.diagnostics = false;
  long long steps = 0;
  for (auto _ : state) {
    const simulation_result r = simulate(m, *solver, o, [](const step_record&) { return true; });
    steps += r.steps;
  }
  // Seconds per RK4 step (printed with an SI prefix, e.g. 3.2u = 3.2 microseconds).
  state.counters["per_step"] = benchmark::Counter(
      static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RK4Step_gigsp(benchmark::State& state) {
  rk4_chain(state, "gigsp");
}
BENCHMARK(BM_RK4Step_gigsp)->Arg(2)->Arg(10)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);
void BM_RK4Step_lm(benchmark::State& state) {
  rk4_chain(state, "lm");
}
BENCHMARK(BM_RK4Step_lm)->Arg(2)->Arg(10)->Arg(50)->Arg(200)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
