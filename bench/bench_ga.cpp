// GA throughput: objective evaluations per second, GA operators included, on one core.
//   4-variable quadratic (the size of the double-pendulum Gauss'-principle problem), in runs of
//   6400 evaluations as the acceleration solver uses them (model built once, run() repeated);
//   Rastrigin-30 in longer runs. Target: 2e7 evaluations/s/core for the real-coded default on the
//   4-variable case (docs/ga.md has the figures).
#include <benchmark/benchmark.h>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace {

using namespace kinevo::ga;

void run_many(benchmark::State& state, const problem& p, const ga_options& o, long long evals) {
  island_options io;  // one island, one thread: a per-core figure
  io.threads = 1;
  island_model model(o, io);
  termination t;
  t.max_generations = 0;
  t.max_evaluations = evals;
  const search_box box = search_box::of(p);
  long long total = 0;
  run_settings s;
  for (auto _ : state) {
    const run_result r = model.run(p, box, t, s);
    ++s.run_index;
    total += r.evaluations;
    benchmark::DoNotOptimize(r.best_value);
  }
  state.counters["evals_per_s"] =
      benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsRate);
}

void quadratic4_gaucsd_binary(benchmark::State& state) {
  run_many(state, quadratic_function::four_variable(), gaucsd_options(), 6400);
}
void quadratic4_gray(benchmark::State& state) {
  ga_options o = gaucsd_options();
  o.genes = encoding::gray;
  o.selection = selection_method::tournament;
  run_many(state, quadratic_function::four_variable(), o, 6400);
}
void quadratic4_real_default(benchmark::State& state) {
  run_many(state, quadratic_function::four_variable(), ga_options{}, 6400);
}
// The Gauss'-principle solver's default GA (gauss/gauss_ga_solver.cpp, preset "default"):
// small population, BLX-0.3, fine polynomial mutation, two elites.
void quadratic4_real_blx_pop20(benchmark::State& state) {
  ga_options o;
  o.population = 20;
  o.tournament_size = 2;
  o.crossover = crossover_method::blx;
  o.crossover_rate = 0.9;
  o.blx_alpha = 0.3;
  o.mutation = mutation_method::polynomial;
  o.polynomial_eta = 100.0;
  o.elites = 2;
  run_many(state, quadratic_function::four_variable(), o, 6400);
}
void rastrigin30_real_default(benchmark::State& state) {
  run_many(state, rastrigin_function(30), ga_options{}, 100000);
}
void rastrigin30_gaucsd_binary(benchmark::State& state) {
  run_many(state, rastrigin_function(30), gaucsd_options(), 100000);
}

BENCHMARK(quadratic4_gaucsd_binary)->Unit(benchmark::kMicrosecond);
BENCHMARK(quadratic4_gray)->Unit(benchmark::kMicrosecond);
BENCHMARK(quadratic4_real_default)->Unit(benchmark::kMicrosecond);
BENCHMARK(quadratic4_real_blx_pop20)->Unit(benchmark::kMicrosecond);
BENCHMARK(rastrigin30_real_default)->Unit(benchmark::kMillisecond);
BENCHMARK(rastrigin30_gaucsd_binary)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
