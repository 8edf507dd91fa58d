// Quality at a fixed budget: median best value over 10 seeds at 1e5 evaluations on
// Rastrigin-10 and Rosenbrock-10, kinevo's GA side by side with pagmo2's sga, de and sade
// (population 100, 1000 generations, pagmo defaults otherwise). First, throughput: objective
// evaluations per CPU second, operators included, on the 4-variable quadratic of bench_ga in
// runs of 6400 evaluations (pagmo: population 100, 64 generations), all in the same process.
// Run by hand:
//   build/bench/compare_pagmo              throughput, then quality of all algorithms
//   build/bench/compare_pagmo kinevo       quality, kinevo only
//   build/bench/compare_pagmo throughput   throughput only
#include <Eigen/Core>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/algorithms/sga.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/rastrigin.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace {

constexpr int seeds = 10;
constexpr long long budget = 100000;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

template <typename Algo>
double pagmo_best(const pagmo::problem& prob, Algo algo, unsigned seed) {
  pagmo::population pop(prob, 100, seed);
  algo.set_seed(seed);
  pop = pagmo::algorithm(algo).evolve(pop);
  return pop.champion_f()[0];
}

// The 4-variable quadratic of bench_ga as a pagmo problem (one point per fitness call, as
// pagmo's sga and de evaluate).
struct pagmo_quadratic {
  std::shared_ptr<const kinevo::ga::quadratic_function> q;
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    Eigen::Vector<double, 1> f;
    q->evaluate(Eigen::Map<const Eigen::MatrixXd>(x.data(), static_cast<Eigen::Index>(x.size()), 1),
                f);
    return {f[0]};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    const Eigen::VectorXd lo = q->lower_bounds();
    const Eigen::VectorXd hi = q->upper_bounds();
    return {{lo.data(), lo.data() + lo.size()}, {hi.data(), hi.data() + hi.size()}};
  }
};

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// Repeats `run` (returning the evaluations it made) for at least 1 s of CPU time.
template <typename Run>
double evaluations_per_second(Run&& run) {
  const double t0 = cpu_seconds();
  double evals = 0.0;
  unsigned k = 0;
  while (cpu_seconds() - t0 < 1.0) evals += run(++k);
  return evals / (cpu_seconds() - t0);
}

void print_throughput() {
  using namespace kinevo::ga;
  const auto q = std::make_shared<const quadratic_function>(quadratic_function::four_variable());
  const pagmo::problem prob(pagmo_quadratic{q});
  std::printf("throughput on the 4-variable quadratic, runs of 6400 evaluations, one core\n");
  const auto pagmo_row = [&](const char* name, const auto& algo) {
    const double rate = evaluations_per_second([&](unsigned seed) {
      pagmo::population pop(prob, 100, seed);
      auto a = algo;
      a.set_seed(seed);
      pop = pagmo::algorithm(a).evolve(pop);
      return static_cast<double>(pop.get_problem().get_fevals());
    });
    std::printf("%-36s %8.2f M evaluations/s\n", name, rate / 1e6);
    std::fflush(stdout);
  };
  pagmo_row("pagmo sga (defaults)", pagmo::sga(64));
  pagmo_row("pagmo sga (sbx 20, polynomial 20)",
            pagmo::sga(64, 0.9, 20.0, 0.25, 20.0, 2u, "sbx", "polynomial", "tournament"));
  pagmo_row("pagmo de", pagmo::de(64));
  const auto kinevo_row = [&](const char* name, const ga_options& o) {
    island_options io;
    io.threads = 1;
    island_model model(o, io);
    termination t;
    t.max_generations = 0;
    t.max_evaluations = 6400;
    const double rate = evaluations_per_second([&](unsigned seed) {
      run_settings s;
      s.run_index = seed;
      return static_cast<double>(model.run(*q, search_box::of(*q), t, s).evaluations);
    });
    std::printf("%-36s %8.2f M evaluations/s\n", name, rate / 1e6);
    std::fflush(stdout);
  };
  kinevo_row("kinevo GA default (sbx, polynomial)", ga_options{});
  ga_options blx;  // the Gauss'-principle solver's GA (bench_ga quadratic4_real_blx_pop20)
  blx.population = 20;
  blx.tournament_size = 2;
  blx.crossover = crossover_method::blx;
  blx.blx_alpha = 0.3;
  blx.polynomial_eta = 100.0;
  blx.elites = 2;
  kinevo_row("kinevo GA blx, population 20", blx);
  kinevo_row("kinevo GAucsd binary", gaucsd_options());
  std::printf("\n");
}

struct kinevo_variant {
  std::string name;
  kinevo::ga::ga_options ga;
  int islands = 1;
  int runs = 1;  // range runs sharing the budget
  double shrink = 1.0;
  double move_factor = 0.0;
  double first_run_budget = 1.0;
  bool rotate = false;
};

double kinevo_best(const kinevo::ga::problem& p, const kinevo_variant& v, unsigned seed) {
  using namespace kinevo::ga;
  island_options io;
  io.islands = v.islands;
  io.seed = seed;
  island_model model(v.ga, io);
  termination t;
  t.max_generations = 0;
  // Per-run limit such that all runs together stay within the budget.
  t.max_evaluations = static_cast<long long>(budget / (v.runs - 1 + v.first_run_budget));
  if (v.runs == 1) return model.run(p, search_box::of(p), t).best_value;
  range_run_options ro;
  ro.runs = v.runs;
  ro.shrink = v.shrink;
  ro.move_factor = v.move_factor;
  ro.first_run_budget = v.first_run_budget;
  ro.rotate = v.rotate;
  ro.clip_lower = p.lower_bounds();
  ro.clip_upper = p.upper_bounds();
  return run_range_runs(model, p, search_box::of(p), t, ro).best_value;
}

}  // namespace

int main(int argc, char** argv) {
  const bool kinevo_only = argc > 1 && std::strcmp(argv[1], "kinevo") == 0;
  const bool throughput_only = argc > 1 && std::strcmp(argv[1], "throughput") == 0;
  if (!kinevo_only) print_throughput();
  if (throughput_only) return 0;
  using namespace kinevo::ga;
  std::vector<kinevo_variant> variants;
  ga_options small;
  small.population = 30;
  variants.push_back({"kinevo GA default", ga_options{}, 1, 1, 1.0, 0.0, 1.0});
  variants.push_back({"kinevo GA 4 islands", ga_options{}, 4, 1, 1.0, 0.0, 1.0});
  variants.push_back({"kinevo GA range runs x10", ga_options{}, 1, 10, 0.3, 0.0, 1.0});
  variants.push_back({"kinevo GA trust-region runs", small, 1, 80, 0.5, 4.0, 20.0, false});
  // The tuned configuration of docs/ga.md (examples/optimize_tuned.toml).
  variants.push_back({"kinevo GA rotated trust region", small, 1, 80, 0.5, 4.0, 20.0, true});
  variants.push_back({"kinevo GAucsd binary", gaucsd_options(), 1, 1, 1.0, 0.0, 1.0});

  struct bench_problem {
    const char* name;
    pagmo::problem pagmo;
    std::unique_ptr<kinevo::ga::problem> kinevo;
  };
  std::vector<bench_problem> problems;
  problems.push_back(
      {"Rastrigin-10", pagmo::problem(pagmo::rastrigin(10)), make_test_function("rastrigin", 10)});
  problems.push_back({"Rosenbrock-10", pagmo::problem(pagmo::rosenbrock(10)),
                      make_test_function("rosenbrock", 10)});

  std::printf("median best of %d seeds at %lld evaluations\n", seeds, budget);
  std::printf("%-28s %14s %14s\n", "algorithm", problems[0].name, problems[1].name);
  const auto row = [&](const std::string& name, const auto& best_of) {
    std::printf("%-28s", name.c_str());
    for (auto& pr : problems) {
      std::vector<double> v;
      for (unsigned s = 1; s <= seeds; ++s) v.push_back(best_of(pr, s));
      std::printf(" %14.4g", median(v));
    }
    std::printf("\n");
    std::fflush(stdout);
  };
  if (!kinevo_only) {
    row("pagmo sga",
        [](bench_problem& pr, unsigned s) { return pagmo_best(pr.pagmo, pagmo::sga(1000), s); });
    row("pagmo de",
        [](bench_problem& pr, unsigned s) { return pagmo_best(pr.pagmo, pagmo::de(1000), s); });
    row("pagmo sade",
        [](bench_problem& pr, unsigned s) { return pagmo_best(pr.pagmo, pagmo::sade(1000), s); });
  }
  for (const auto& v : variants) {
    row(v.name, [&](bench_problem& pr, unsigned s) { return kinevo_best(*pr.kinevo, v, s); });
  }
  return 0;
}
