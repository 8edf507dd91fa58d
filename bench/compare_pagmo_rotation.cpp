// Evaluations to reach f <= 1e-20 on smooth non-separable and ill-conditioned problems
// (issue 25): kinevo's g3-pcx preset against pagmo2's cmaes, xnes, sade and de, measured in the
// same run, at n = 5, 10, 20, 50 over 10 seeds (median, worst, failures). The protocol is Deb,
// Anand and Joshi's (2002, sec. 5): the initial population uniform in [-10, -5]^n (away from the
// optimum), the search unconstrained (here a box [-50, 50]^n that no run reaches). A run that
// does not reach 1e-20 within 20000 n evaluations is a failure and counts as such.
//   cmaes, xnes: lambda = 4 + floor(3 ln n) (their default), mean at the best initial point,
//                initial step 2.5 (half the initial box: sigma0 = 2.5 / 100 of the box width);
//   sade, de:    population 100, pagmo's defaults (de: F 0.8, CR 0.9, rand/1/exp);
//   g3-pcx:      population 100, mu 3, lambda 2, r 2, sigma_zeta = sigma_eta = 0.1;
//   g3-pcx-metric: the same in a learned metric, sigma_eta = 0.14 (ga::g3_pcx_metric_options);
//   mgg-undx:    the minimal generation gap model with UNDX (Kita, Ono and Kobayashi's
//                pairing): population 100, mu 3, lambda mgg_children, Kita et al.'s spreads;
//   mgg-pcx:     the same model with G3-PCX's operator (mu 3, lambda mgg_children).
// Every algorithm is checked after each of its generations (kinevo: 100 evaluations, one g3
// generation of 50 family steps; cmaes: lambda; sade, de: 100), so counts are exact to one
// generation.
// Run by hand:
//   build/bench/compare_pagmo_rotation                 all functions, n = 5 10 20 50
//   build/bench/compare_pagmo_rotation 20              n = 20 only
//   build/bench/compare_pagmo_rotation 20 ellipsoid    one function ("all": every one)
//   build/bench/compare_pagmo_rotation 50 all kinevo   kinevo's rows only
//   build/bench/compare_pagmo_rotation 20 all g3-pcx,cmaes   rows naming one of these words
//   build/bench/compare_pagmo_rotation throughput      evaluations/s of g3-pcx, undx, spx, sbx
//   build/bench/compare_pagmo_rotation presets         tuned preset against g3-pcx(-metric) at 1e5
//                                                      evaluations (should tuned switch?)
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/algorithms/xnes.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"

namespace {

constexpr int seeds = 10;
constexpr double target = 1e-20;
constexpr double box_half_width = 50.0;
// Children per mgg family step (Kita et al. use many children per pair; measured at n = 20 on
// the ellipsoid, see bench/results/rotation_invariant.md).
constexpr int mgg_children = 10;

kinevo::ga::ga_options mgg_options(kinevo::ga::crossover_method c) {
  kinevo::ga::ga_options o = kinevo::ga::g3_pcx_options();
  o.model = kinevo::ga::generation_model::mgg;
  o.crossover = c;
  o.offspring = mgg_children;
  return o;
}

long long budget(int n) {
  return 20000LL * n;
}

// A kinevo test function as a pagmo problem, over the protocol's box.
struct pagmo_function {
  std::shared_ptr<const kinevo::ga::problem> f;
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    Eigen::Matrix<double, 1, 1> v;
    f->evaluate(Eigen::Map<const Eigen::MatrixXd>(x.data(), static_cast<Eigen::Index>(x.size()), 1),
                v);
    return {v(0, 0)};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    const auto n = static_cast<std::size_t>(f->dimension());
    return {pagmo::vector_double(n, -box_half_width), pagmo::vector_double(n, box_half_width)};
  }
};

// Evaluations to the target, or -1 for a failure.
using solver =
    std::function<long long(const std::shared_ptr<const kinevo::ga::problem>&, unsigned)>;

long long kinevo_steady_state(const std::shared_ptr<const kinevo::ga::problem>& p, unsigned seed,
                              kinevo::ga::ga_options o) {
  using namespace kinevo::ga;
  const int n = p->dimension();
  island_options io;
  io.seed = seed;
  io.threads = 1;
  island_model m(o, io);
  termination t;
  t.max_generations = 0;
  t.max_evaluations = budget(n);
  t.target_value = target;
  const search_box box{Eigen::VectorXd::Constant(n, -box_half_width),
                       Eigen::VectorXd::Constant(n, box_half_width)};
  const search_box start{Eigen::VectorXd::Constant(n, -10.0), Eigen::VectorXd::Constant(n, -5.0)};
  run_settings s;
  s.initial_box = &start;
  const run_result r = m.run(*p, box, t, s);
  return r.reason == stop_reason::target ? r.evaluations : -1;
}

// A pagmo algorithm one generation at a time until the target or the budget.
template <typename Algo>
long long pagmo_run(const std::shared_ptr<const kinevo::ga::problem>& p, unsigned seed,
                    int population, const Algo& uda) {
  const int n = p->dimension();
  pagmo::problem prob(pagmo_function{p});
  pagmo::population pop(prob, 0u, seed);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> start(-10.0, -5.0);
  for (int i = 0; i < population; ++i) {
    pagmo::vector_double x(static_cast<std::size_t>(n));
    for (auto& v : x) v = start(rng);
    pop.push_back(x);
  }
  pagmo::algorithm algo(uda);
  algo.set_seed(seed);
  const auto evals = [&] { return static_cast<long long>(pop.get_problem().get_fevals()); };
  while (evals() < budget(n)) {
    if (pop.champion_f()[0] <= target) return evals();
    pop = algo.evolve(pop);
  }
  return pop.champion_f()[0] <= target ? evals() : -1;
}

int es_lambda(int n) {
  return 4 + static_cast<int>(std::floor(3.0 * std::log(static_cast<double>(n))));
}

struct algorithm_row {
  std::string name;
  solver run;
};

std::vector<algorithm_row> algorithms() {
  using namespace kinevo::ga;
  std::vector<algorithm_row> rows;
  rows.push_back({"kinevo g3-pcx", [](const auto& p, unsigned s) {
                    return kinevo_steady_state(p, s, g3_pcx_options());
                  }});
  rows.push_back({"kinevo g3-pcx-metric", [](const auto& p, unsigned s) {
                    return kinevo_steady_state(p, s, g3_pcx_metric_options());
                  }});
  rows.push_back({"kinevo mgg-undx", [](const auto& p, unsigned s) {
                    return kinevo_steady_state(p, s, mgg_options(crossover_method::undx));
                  }});
  rows.push_back({"kinevo mgg-pcx", [](const auto& p, unsigned s) {
                    return kinevo_steady_state(p, s, mgg_options(crossover_method::pcx));
                  }});
  const double sigma0 = 2.5 / (2.0 * box_half_width);
  rows.push_back({"pagmo cmaes", [sigma0](const auto& p, unsigned s) {
                    const int n = p->dimension();
                    return pagmo_run(
                        p, s, es_lambda(n),
                        pagmo::cmaes(1u, -1, -1, -1, -1, sigma0, 0.0, 0.0, true, false, s));
                  }});
  rows.push_back({"pagmo xnes", [sigma0](const auto& p, unsigned s) {
                    const int n = p->dimension();
                    return pagmo_run(p, s, es_lambda(n),
                                     pagmo::xnes(1u, -1, -1, -1, sigma0, 0.0, 0.0, true, false, s));
                  }});
  rows.push_back({"pagmo sade", [](const auto& p, unsigned s) {
                    return pagmo_run(p, s, 100, pagmo::sade(1u, 2u, 1u, 0.0, 0.0, true, s));
                  }});
  rows.push_back({"pagmo de", [](const auto& p, unsigned s) {
                    return pagmo_run(p, s, 100, pagmo::de(1u, 0.8, 0.9, 2u, 0.0, 0.0, s));
                  }});
  return rows;
}

void print_cell(std::vector<long long> v) {
  const long long failures = std::count(v.begin(), v.end(), -1LL);
  // Failures count as worse than any success: the median is a failure when half failed.
  std::sort(v.begin(), v.end(), [](long long a, long long b) {
    return (a < 0 ? LLONG_MAX : a) < (b < 0 ? LLONG_MAX : b);
  });
  const auto show = [](long long e) { return e < 0 ? std::string("fail") : std::to_string(e); };
  const long long lo = v[v.size() / 2 - 1];
  const long long hi = v[v.size() / 2];
  const std::string median = lo < 0 || hi < 0 ? std::string("fail") : std::to_string((lo + hi) / 2);
  std::printf(" %9s %9s %2lld", median.c_str(), show(v.back()).c_str(), failures);
}

void run_table(const std::vector<int>& dims, const std::vector<std::string>& functions,
               const std::string& only) {
  auto rows = algorithms();
  if (!only.empty()) {
    // Rows whose name contains one of the comma-separated words ("kinevo": kinevo's rows).
    std::erase_if(rows, [&](const algorithm_row& r) {
      std::size_t from = 0;
      while (from <= only.size()) {
        const std::size_t to = std::min(only.find(',', from), only.size());
        if (r.name.find(only.substr(from, to - from)) != std::string::npos) return false;
        from = to + 1;
      }
      return true;
    });
  }
  std::printf("evaluations to f <= 1e-20 over %d seeds: median, worst, failures (budget 20000 n)\n",
              seeds);
  for (const auto& fn : functions) {
    for (const int n : dims) {
      std::printf("\n%s n = %d\n%-20s %9s %9s %2s\n", fn.c_str(), n, "algorithm", "median", "worst",
                  "f");
      const std::shared_ptr<const kinevo::ga::problem> p = kinevo::ga::make_test_function(fn, n);
      for (const auto& row : rows) {
        std::vector<long long> evals;
        const auto t0 = std::chrono::steady_clock::now();
        for (unsigned s = 1; s <= seeds; ++s) evals.push_back(row.run(p, s));
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%-20s", row.name.c_str());
        print_cell(evals);
        std::printf("   (%.1f s)\n", secs);
        std::fflush(stdout);
      }
    }
  }
}

// Evaluations per second of whole runs (operators, replacement and the island model included)
// on the ellipsoid, against the real-coded default (sbx, polynomial mutation, generational).
void run_throughput() {
  using namespace kinevo::ga;
  std::printf("evaluations/s on the ellipsoid, runs of 100000 evaluations, one thread\n");
  std::printf("%-22s", "variant");
  for (const int n : {5, 10, 20, 50}) std::printf(" %12s", ("n = " + std::to_string(n)).c_str());
  std::printf("\n");
  std::vector<std::pair<std::string, ga_options>> variants;
  variants.push_back({"default (sbx)", ga_options{}});
  variants.push_back({"g3-pcx", g3_pcx_options()});
  variants.push_back({"g3-pcx-metric", g3_pcx_metric_options()});
  ga_options undx = g3_pcx_options();
  undx.crossover = crossover_method::undx;
  variants.push_back({"g3-undx (mu 3)", undx});
  ga_options spx = g3_pcx_options();
  spx.crossover = crossover_method::spx;
  variants.push_back({"g3-spx (mu n+1)", spx});
  for (auto& [name, o] : variants) {
    std::printf("%-22s", name.c_str());
    for (const int n : {5, 10, 20, 50}) {
      if (o.crossover == crossover_method::spx) o.parents = n + 1;
      const auto p = make_test_function("ellipsoid", n);
      island_options io;
      io.threads = 1;
      island_model m(o, io);
      termination t;
      t.max_generations = 0;
      t.max_evaluations = 100000;
      const auto t0 = std::chrono::steady_clock::now();
      const auto r = m.run(*p, search_box::of(*p), t);
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf(" %10.3g/s", static_cast<double>(r.evaluations) / secs);
    }
    std::printf("\n");
  }
}

// Median best over 10 seeds at 1e5 evaluations on the functions' own boxes (uniform initial
// populations): the tuned preset (population 30, 80 rotated trust-region range runs, the first
// with 20 times the budget; as compare_pagmo and optimization/run_plan.cpp) against g3-pcx
// (one run). Decides whether the tuned preset should switch to g3-pcx.
void run_presets() {
  using namespace kinevo::ga;
  constexpr long long total = 100000;
  const auto tuned = [&](const problem& p, unsigned seed) {
    ga_options o;
    o.population = 30;
    island_options io;
    io.seed = seed;
    io.threads = 1;
    island_model m(o, io);
    range_run_options ro;
    ro.runs = 80;
    ro.shrink = 0.5;
    ro.move_factor = 4.0;
    ro.first_run_budget = 20.0;
    ro.rotate = true;
    ro.clip_lower = p.lower_bounds();
    ro.clip_upper = p.upper_bounds();
    termination t;
    t.max_generations = 0;
    t.max_evaluations = static_cast<long long>(total / (ro.runs - 1 + ro.first_run_budget));
    return run_range_runs(m, p, search_box::of(p), t, ro).best_value;
  };
  const auto g3 = [&](const problem& p, unsigned seed, const ga_options& o) {
    island_options io;
    io.seed = seed;
    io.threads = 1;
    island_model m(o, io);
    termination t;
    t.max_generations = 0;
    t.max_evaluations = total;
    return m.run(p, search_box::of(p), t).best_value;
  };
  std::printf("median best of %d seeds at %lld evaluations (own boxes)\n", seeds, total);
  std::printf("%-24s %14s %14s %14s\n", "function", "tuned", "g3-pcx", "g3-pcx-metric");
  for (const auto& [fn, n] : std::vector<std::pair<std::string, int>>{{"rastrigin", 10},
                                                                      {"rosenbrock", 10},
                                                                      {"sphere", 10},
                                                                      {"ackley", 10},
                                                                      {"griewank", 10},
                                                                      {"schwefel", 10},
                                                                      {"ellipsoid", 10},
                                                                      {"double_sum", 10},
                                                                      {"rotated_ellipsoid", 10},
                                                                      {"rotated_rastrigin", 10}}) {
    const auto p = make_test_function(fn, n);
    std::vector<double> a, b, c;
    for (unsigned s = 1; s <= seeds; ++s) {
      a.push_back(tuned(*p, s));
      b.push_back(g3(*p, s, g3_pcx_options()));
      c.push_back(g3(*p, s, g3_pcx_metric_options()));
    }
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::sort(c.begin(), c.end());
    std::printf("%-24s %14.4g %14.4g %14.4g\n", (fn + "-" + std::to_string(n)).c_str(),
                0.5 * (a[4] + a[5]), 0.5 * (b[4] + b[5]), 0.5 * (c[4] + c[5]));
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "throughput") == 0) {
    run_throughput();
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "presets") == 0) {
    run_presets();
    return 0;
  }
  std::vector<int> dims{5, 10, 20, 50};
  std::vector<std::string> functions{"ellipsoid", "double_sum", "rosenbrock", "rotated_ellipsoid"};
  if (argc > 1) dims = {std::atoi(argv[1])};
  if (argc > 2 && std::strcmp(argv[2], "all") != 0) functions = {argv[2]};
  // A third argument: the rows whose names contain one of its comma-separated words ("kinevo":
  // kinevo's rows; "g3-pcx,cmaes": both G3-PCX rows and cmaes).
  run_table(dims, functions, argc > 3 ? std::string(argv[3]) : std::string());
  return 0;
}
