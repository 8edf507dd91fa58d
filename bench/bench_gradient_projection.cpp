// SANLSU gradient projection (docs/gradient-projection.md): the GA alone against the GA followed
// by SANLSU (--refine sanlsu) on the SANLSU examples and the CEC 2006 problems with equality
// constraints only and an interior optimum (g03, g11, g13, g14, g15), with default settings and a
// fixed seed; and SANLSU alone from the files' starts. Counters: final error against the exact
// KKT value (err), largest |h| (viol), evaluations of the GA and of SANLSU, SANLSU iterations.
// Run: build/bench/bench_gradient_projection
#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>
#include <string>

#include "kinevo/optimization/run_driver.hpp"
#include "kinevo/optimization/sanlsu_run.hpp"

namespace {

using namespace kinevo::optimization;

struct case_file {
  const char* file;
  double optimum;  // the exact constrained minimum (h = 0, not the CEC 2006 1e-4 tolerance)
};

// g03: -1 at x_i = 1/sqrt(10); g11: 0.75 at (+-1/sqrt 2, 1/2); g13, g14, g15: the CEC 2006
// best-known values (Liang et al. 2006), which meet h to 1e-4 and lie within 1e-6 relative of the
// exact minima.
const case_file cases[] = {
    {"sanlsu_ellipse.toml", 0.125},
    {"sanlsu_arm.toml", std::numbers::pi* std::numbers::pi / 4},
    {"cec2006/g03.toml", -1.0},
    {"cec2006/g11.toml", 0.75},
    {"cec2006/g13.toml", 0.053941514041898},
    {"cec2006/g14.toml", -47.764888459491},
    {"cec2006/g15.toml", 961.71502228996},
};

std::string path_of(const case_file& c) {
  return std::string(KINEVO_EXAMPLES) + "/" + c.file;
}

void ga_alone(benchmark::State& state) {
  const case_file& c = cases[state.range(0)];
  optimize_options o;
  o.problem_file = path_of(c);
  o.seed = 7;
  optimization_run run;
  for (auto _ : state) run = run_optimization(o);
  state.SetLabel(c.file);
  state.counters["err"] = std::abs(run.expression->objective - c.optimum);
  state.counters["viol"] = run.expression->max_violation;
  state.counters["ga_evals"] = static_cast<double>(run.result.evaluations);
}

void ga_then_sanlsu(benchmark::State& state) {
  const case_file& c = cases[state.range(0)];
  optimize_options o;
  o.problem_file = path_of(c);
  o.seed = 7;
  o.refine_sanlsu = true;
  sanlsu_run run;
  for (auto _ : state) run = refine_with_sanlsu(o, run_optimization(o));
  state.SetLabel(std::string(c.file) + " " + run.sanlsu.summary.status());
  // The answer: the refined point when SANLSU converged, else the GA's (as --json reports it).
  const bool refined = run.sanlsu.ok();
  state.counters["err"] =
      std::abs((refined ? run.sanlsu.value : run.ga->expression->objective) - c.optimum);
  state.counters["viol"] =
      refined ? run.sanlsu.constraint_residual : run.ga->expression->max_violation;
  state.counters["sanlsu_err"] = std::abs(run.sanlsu.value - c.optimum);
  state.counters["sanlsu_ms"] = 1e3 * run.sanlsu.seconds;
  state.counters["ga_ms"] = 1e3 * run.ga->seconds;
  state.counters["ga_evals"] = static_cast<double>(run.ga->result.evaluations);
  state.counters["sanlsu_evals"] =
      static_cast<double>(run.sanlsu.evaluations + run.sanlsu.gradient_evaluations);
  state.counters["iterations"] = run.sanlsu.iterations;
}

void sanlsu_alone(benchmark::State& state) {
  const case_file& c = cases[state.range(0)];
  optimize_options o;
  o.problem_file = path_of(c);
  o.solver = method::sanlsu;
  o.sanlsu.method = static_cast<restoration>(state.range(1));
  sanlsu_run run;
  for (auto _ : state) run = run_sanlsu(o);
  state.SetLabel(std::string(c.file) + " case " + std::to_string(state.range(1)) + " " +
                 run.sanlsu.summary.status());
  state.counters["err"] = std::abs(run.sanlsu.value - c.optimum);
  state.counters["viol"] = run.sanlsu.constraint_residual;
  state.counters["sanlsu_evals"] =
      static_cast<double>(run.sanlsu.evaluations + run.sanlsu.gradient_evaluations);
  state.counters["iterations"] = run.sanlsu.iterations;
}

}  // namespace

BENCHMARK(ga_alone)->DenseRange(0, 6)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(ga_then_sanlsu)->DenseRange(0, 6)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(sanlsu_alone)->ArgsProduct({{0, 1}, {2, 3}})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
