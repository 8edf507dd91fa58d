// pagmo2's constrained solvers on its own CEC 2006 problems g01..g24 (pagmo::cec2006), the
// reference columns beside `kinevo optimize --problem examples/cec2006/gNN.toml`
// (bench/cec2006_kinevo.sh). Per run: the champion's f, its CEC 2006 feasibility (every g <= 0,
// every |h| <= 1e-4), its largest violation max(|h|, g+) and its error |f - f*| / max(1, |f*|).
// Writes the CSV of bench/cec2006_table.hpp and prints the table of docs/benchmarks.md.
//
// Solvers, pagmo's defaults otherwise (pagmo does not recommend CEC 2006 settings):
//   cstrs-de  cstrs_self_adaptive(iters, de(1, F 0.8, CR 0.9, rand/1/exp, ftol 1e-6, xtol 1e-6)),
//             population 50: one DE generation (50 evaluations) per penalty update
//   gaco      gaco(gen, ker 63, q 1, oracle 0, acc 0.01, threshold 1, n_gen_mark 7,
//             impstop 1e5, evalstop 1e5, focus 0, memory false), population 100 (>= ker)
// Both run with c_tol 1e-4 on the equalities and 0 on the inequalities, the CEC 2006 rule.
// Generations fill the budget: the initial population plus whole generations, never more than
// the budget; the CSV has pagmo's own count (problem::get_fevals()), which cstrs_self_adaptive's
// cache of known points makes smaller: once DE's population has collapsed onto one point every
// trial is a known point and the run stops spending (docs/benchmarks.md counts such runs).
//
// Run by hand (2 threads: the runs are independent):
//   build/bench/compare_pagmo_cec2006 --csv bench/results/cec2006_pagmo.csv
//   build/bench/compare_pagmo_cec2006 --problems 1,5,13 --seeds 3 --budgets 20000
//   build/bench/compare_pagmo_cec2006 --check     pagmo's best_known points against the f* table
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cstrs_self_adaptive.hpp>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/gaco.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/cec2006.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cec2006_table.hpp"

namespace {

namespace cec = kinevo::bench::cec2006;

struct options {
  std::vector<std::string> solvers{"cstrs-de", "gaco"};
  std::vector<long long> budgets{100000, 500000};
  std::vector<unsigned> problems;  // ids 1..24
  unsigned seeds = 10;             // seeds 1..seeds
  unsigned threads = 2;
  unsigned de_population = 50;
  unsigned gaco_population = 100;
  std::string csv;  // empty: no CSV
  bool check = false;

  options() {
    for (unsigned id = 1; id <= 24; ++id) problems.push_back(id);
  }

  void validate() const {
    for (const auto& s : solvers) {
      if (s != "cstrs-de" && s != "gaco") {
        throw std::invalid_argument("--solvers: unknown solver '" + s + "' (cstrs-de, gaco)");
      }
    }
    for (unsigned id : problems) {
      if (id < 1 || id > 24) throw std::invalid_argument("--problems: ids are 1..24");
    }
    if (seeds == 0) throw std::invalid_argument("--seeds must be >= 1");
    if (threads == 0) throw std::invalid_argument("--threads must be >= 1");
    // cstrs_self_adaptive needs 4 individuals; gaco's archive of 63 needs as many.
    if (de_population < 4) throw std::invalid_argument("--de-population must be >= 4");
    if (gaco_population < 63) throw std::invalid_argument("--gaco-population must be >= 63");
    for (long long b : budgets) {
      const long long smallest = std::max(de_population, gaco_population) * 2LL;
      if (b < smallest) {
        throw std::invalid_argument(fmt::format("--budgets: each must be >= {}", smallest));
      }
    }
  }
};

template <typename T>
std::vector<T> parse_list(const std::string& text, const char* option) {
  std::vector<T> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);  // accepts 1e5
    if (item.empty() || *end != '\0' || v < 0 || v != std::floor(v)) {
      throw std::invalid_argument(fmt::format("{}: '{}' is not a whole number", option, item));
    }
    out.push_back(static_cast<T>(v));
    start = comma + 1;
  }
  return out;
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--solvers") {
      o.solvers.clear();
      std::string s = value();
      for (std::size_t start = 0; start <= s.size();) {
        const std::size_t comma = std::min(s.find(',', start), s.size());
        o.solvers.push_back(s.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (a == "--budgets") {
      o.budgets = parse_list<long long>(value(), "--budgets");
    } else if (a == "--problems") {
      o.problems = parse_list<unsigned>(value(), "--problems");
    } else if (a == "--seeds") {
      o.seeds = parse_list<unsigned>(value(), "--seeds").at(0);
    } else if (a == "--threads") {
      o.threads = parse_list<unsigned>(value(), "--threads").at(0);
    } else if (a == "--de-population") {
      o.de_population = parse_list<unsigned>(value(), "--de-population").at(0);
    } else if (a == "--gaco-population") {
      o.gaco_population = parse_list<unsigned>(value(), "--gaco-population").at(0);
    } else if (a == "--csv") {
      o.csv = value();
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "--help" || a == "-h") {
      std::puts(
          "compare_pagmo_cec2006 [--solvers cstrs-de,gaco] [--budgets 100000,500000]\n"
          "  [--problems 1,...,24] [--seeds 10] [--threads 2] [--de-population 50]\n"
          "  [--gaco-population 100] [--csv FILE] [--check]");
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown option " + a + " (see --help)");
    }
  }
  o.validate();
  return o;
}

// pagmo's cec2006 with the CEC 2006 tolerances: 1e-4 on each |h|, none on g.
pagmo::problem make_problem(unsigned id) {
  pagmo::problem p{pagmo::cec2006{id}};
  pagmo::vector_double tol(p.get_nc(), 0.0);
  std::fill_n(tol.begin(), p.get_nec(), cec::equality_tolerance);
  p.set_c_tol(tol);
  return p;
}

// max(|h|, max(g, 0)) over a fitness vector [f, h..., g...], without tolerance (the same
// measure as kinevo's max_violation).
double max_violation(const pagmo::problem& p, const pagmo::vector_double& fit) {
  double worst = 0.0;
  const auto nec = p.get_nec();
  for (std::size_t k = 1; k < fit.size(); ++k) {
    worst = std::max(worst, k <= nec ? std::abs(fit[k]) : std::max(0.0, fit[k]));
  }
  return worst;
}

// A seed per extra call of a run's solver, apart from the first call's.
unsigned chunk_seed(unsigned seed, unsigned chunk) {
  return seed + 1000003u * chunk;
}

pagmo::population run_cstrs_de(unsigned id, long long budget, unsigned seed, unsigned np) {
  pagmo::population pop{make_problem(id), np, seed};
  // The cache of known points may save evaluations; further calls spend them (the penalty
  // adapts from the population alone, so a second call continues the first).
  for (unsigned chunk = 0;; ++chunk) {
    const auto used = static_cast<long long>(pop.get_problem().get_fevals());
    const auto iters = static_cast<unsigned>((budget - used) / np);
    if (iters == 0) break;
    const unsigned s = chunk_seed(seed, chunk);
    pagmo::algorithm algo{
        pagmo::cstrs_self_adaptive{iters, pagmo::de{1u, 0.8, 0.9, 2u, 1e-6, 1e-6, s}, s}};
    pop = algo.evolve(pop);
    if (static_cast<long long>(pop.get_problem().get_fevals()) == used) break;  // all cached
  }
  return pop;
}

pagmo::population run_gaco(unsigned id, long long budget, unsigned seed, unsigned np) {
  pagmo::population pop{make_problem(id), np, seed};
  const auto gen = static_cast<unsigned>((budget - np) / np);
  pagmo::algorithm algo{
      pagmo::gaco{gen, 63u, 1.0, 0.0, 0.01, 1u, 7u, 100000u, 100000u, 0.0, false, seed}};
  return algo.evolve(pop);
}

struct task {
  std::string solver;
  long long budget;
  unsigned id;
  unsigned seed;
};

cec::run_row run(const task& t, const options& o) {
  const pagmo::population pop = t.solver == "cstrs-de"
                                    ? run_cstrs_de(t.id, t.budget, t.seed, o.de_population)
                                    : run_gaco(t.id, t.budget, t.seed, o.gaco_population);
  const auto& prob = pop.get_problem();
  const auto fit = pop.champion_f();
  cec::run_row r;
  r.solver = "pagmo-" + t.solver;
  r.budget = t.budget;
  r.problem = cec::problem_name(t.id);
  r.seed = t.seed;
  r.evaluations = static_cast<long long>(prob.get_fevals());
  r.f = fit[0];
  r.feasible = prob.feasibility_f(fit);  // with the c_tol above: the CEC 2006 rule
  r.max_violation = max_violation(prob, fit);
  r.error = cec::relative_error(r.f, cec::best_known_f[t.id - 1]);
  return r;
}

// How far a fitness vector is from CEC 2006 feasibility: max((|h| - 1e-4)+, g+).
double excess_violation(const pagmo::problem& p, const pagmo::vector_double& fit) {
  double worst = 0.0;
  const auto nec = p.get_nec();
  for (std::size_t k = 1; k < fit.size(); ++k) {
    worst = std::max(worst, k <= nec ? std::abs(fit[k]) - cec::equality_tolerance : fit[k]);
  }
  return worst;
}

// pagmo's best_known point of each problem evaluated by pagmo, beside the f* table.
void check_best_known() {
  std::puts(
      "| problem | f* (report) | f(best_known x), pagmo | error | max violation | beyond the "
      "CEC rule | feasible |");
  std::puts("|---|---|---|---|---|---|---|");
  for (unsigned id = 1; id <= 24; ++id) {
    const pagmo::problem p = make_problem(id);
    const auto x = p.extract<pagmo::cec2006>()->best_known();
    const auto fit = p.fitness(x);
    const double f_star = cec::best_known_f[id - 1];
    const double excess = excess_violation(p, fit);
    std::printf("| %s | %.15g | %.15g | %.1e | %.3e | %s | %s |\n", cec::problem_name(id).c_str(),
                f_star, fit[0], cec::relative_error(fit[0], f_star), max_violation(p, fit),
                excess > 0 ? fmt::format("{:.1e}", excess).c_str() : "-",
                p.feasibility_f(fit) ? "yes" : "no");
  }
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "compare_pagmo_cec2006: %s\n", e.what());
    return 2;
  }
  if (o.check) {
    check_best_known();
    return 0;
  }

  std::vector<task> tasks;
  for (const auto& s : o.solvers) {
    for (long long b : o.budgets) {
      for (unsigned id : o.problems) {
        for (unsigned seed = 1; seed <= o.seeds; ++seed) tasks.push_back({s, b, id, seed});
      }
    }
  }
  std::vector<cec::run_row> rows(tasks.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;  // under `progress`
  std::mutex progress;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> failures;
  const auto worker = [&] {
    for (std::size_t k = next++; k < tasks.size(); k = next++) {
      try {
        rows[k] = run(tasks[k], o);
      } catch (const std::exception& e) {
        const std::lock_guard lock(progress);
        failures.push_back(fmt::format("{} {} g{:02} seed {}: {}", tasks[k].solver, tasks[k].budget,
                                       tasks[k].id, tasks[k].seed, e.what()));
        continue;
      }
      const std::lock_guard lock(progress);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "\r%zu/%zu runs, %.0f s", ++done, tasks.size(), s);
    }
  };
  std::vector<std::jthread> pool;
  for (unsigned t = 0; t < o.threads; ++t) pool.emplace_back(worker);
  pool.clear();  // joins
  std::fputs("\n", stderr);
  for (const auto& f : failures) std::fprintf(stderr, "failed: %s\n", f.c_str());
  if (!failures.empty()) return 1;

  if (!o.csv.empty()) {
    std::ofstream out(o.csv);
    out << cec::csv_header << '\n';
    for (const auto& r : rows) out << cec::to_csv(r) << '\n';
    if (!out) {
      std::fprintf(stderr, "compare_pagmo_cec2006: cannot write %s\n", o.csv.c_str());
      return 1;
    }
  }
  std::fputs(cec::markdown_table(rows).c_str(), stdout);
  return 0;
}
