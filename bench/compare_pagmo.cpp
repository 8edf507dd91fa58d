// Quality at a fixed budget: median best value over 10 seeds at 1e5 evaluations on
// Rastrigin-10 and Rosenbrock-10, kinevo's GA side by side with pagmo2's sga, de and sade
// (population 100, 1000 generations, pagmo defaults otherwise). Run by hand:
//   build/bench/compare_pagmo            all algorithms
//   build/bench/compare_pagmo kinevo     kinevo only
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/algorithms/sga.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/rastrigin.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <string>
#include <vector>

#include "ga/island_model.hpp"
#include "ga/range_runs.hpp"
#include "ga/test_functions.hpp"

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
