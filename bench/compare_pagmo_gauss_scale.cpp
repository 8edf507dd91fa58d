// Gauss' function at scale, one augmented-Lagrangian objective and five inner minimisers (issue
// 26 item 5): the "ga" solver's multiplier loop with its runs minimised by the island GA (the
// default preset), by pagmo2's cmaes and by pagmo2's sade (bench/pagmo_inner_minimiser.hpp:
// the same objective, weights, multiplier updates, boxes, start point, per-run budget and
// stopping rule), and the gradient methods on the same objective (gauss/gradient_baselines.hpp:
// block-Jacobi CG and Newton). Per model and method a cold solve at the initial state: outer
// runs, evaluations (every function value, gradient and Hessian-vector product counted alike),
// wall and CPU time, error against GIGSP (max |a - a_gigsp| / max(1, max |a|)) and status.
// Prints a Markdown table and the growth exponents of the converged rows.
// Run by hand from the repository root (one core: one island on one thread):
//   build/bench/compare_pagmo_gauss_scale [--planar 5,10,20,50] [--spatial 2,5,10,20]
//     [--methods ga,cmaes,sade,cg,newton] [--seed S] [--trace] [--budget-per-n E]
//   (--budget-per-n: another per-run budget, E n evaluations, for the GA and pagmo alike)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "bench/bench_measures.hpp"
#include "bench/pagmo_inner_minimiser.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/gradient_baselines.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

using namespace kinevo::mechanics;
using namespace kinevo::gauss;
using kinevo::bench::pagmo_inner_settings;
using kinevo::bench::pagmo_method;
using clock_type = std::chrono::steady_clock;

using kinevo::bench::process_cpu_seconds;
using kinevo::bench::scaled_error;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t p = 0;
  while (p <= s.size()) {
    const std::size_t q = s.find(',', p);
    const std::string item = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
    if (!item.empty()) out.push_back(item);
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
}

struct settings {
  std::vector<int> planar = {5, 10, 20, 50};
  std::vector<int> spatial = {2, 5, 10, 20};
  std::vector<std::string> methods = {"ga", "cmaes", "sade", "cg", "newton"};
  std::uint64_t seed = 1;
  long long budget_per_n = 0;  // > 0: evaluations_per_coordinate of every run (a check)
  bool trace = false;
};

struct measured {
  int runs = 0;
  long long evaluations = 0;
  double seconds = 0.0, cpu_seconds = 0.0, error = 0.0;
  bool ok = false;
  std::string message;
};

void print_trace(const gauss_ga_solver& solver) {
  for (const auto& r : solver.last_runs()) {
    fmt::print("  run {:2d}: radius {:.3g}  change {:.3g}  residual {:.3g}  evals {}{}\n", r.run,
               r.radii.cwiseAbs().maxCoeff(), r.change, r.max_residual, r.evaluations,
               r.near_face ? "  (face)" : "");
  }
}

// The multiplier loop of the default preset with the named inner minimiser.
acceleration_result loop_solve(const constrained_system& s, const std::string& method,
                               const settings& st) {
  gauss_ga_options o = gauss_ga_preset("default");
  o.islands.seed = st.seed;
  o.record_trace = st.trace;
  if (st.budget_per_n > 0) o.evaluations_per_coordinate = st.budget_per_n;
  gauss_ga_solver solver(o);
  if (method != "ga") {
    pagmo_inner_settings ps;
    ps.method = method == "cmaes" ? pagmo_method::cmaes : pagmo_method::sade;
    ps.seed = st.seed;
    ps.sade_population = static_cast<unsigned>(o.ga.population);
    ps.box_margin = o.box_margin;
    // Progress on stderr, run by run: pagmo's cmaes costs O(n^3) per sample (it forms the
    // n x n product B D for every draw), so the large rows take hours and may be stopped early.
    auto inner = kinevo::bench::pagmo_inner_minimiser(ps);
    solver.set_inner_minimiser(
        method,
        [inner, method, run = 0](const kinevo::ga::problem& p, const kinevo::ga::search_box& box,
                                 const kinevo::ga::termination& limits,
                                 const kinevo::ga::run_settings& settings) mutable {
          const double c0 = process_cpu_seconds();
          kinevo::ga::run_result r = inner(p, box, limits, settings);
          const double moved = settings.start_point == nullptr
                                   ? std::nan("")
                                   : ((r.best_x - *settings.start_point).cwiseQuotient(box.radii()))
                                         .cwiseAbs()
                                         .maxCoeff();
          fmt::print(stderr,
                     "  {} run {}: {} evaluations, {:.3g} s CPU, best moved {:.3g} of the box\n",
                     method, ++run, r.evaluations, process_cpu_seconds() - c0, moved);
          return r;
        });
  }
  acceleration_result r = solver.solve(s);
  if (st.trace) print_trace(solver);
  return r;
}

measured run_method(const constrained_system& s, const Eigen::VectorXd& ref,
                    const std::string& method, const settings& st) {
  const auto t0 = clock_type::now();
  const double c0 = process_cpu_seconds();
  acceleration_result r;
  if (method == "cg" || method == "newton") {
    gradient_baseline_options g;
    g.method = method == "cg" ? gradient_method::conjugate_gradients : gradient_method::newton;
    r = solve_by_gradients(s, g);
  } else {
    r = loop_solve(s, method, st);
  }
  measured m;
  m.cpu_seconds = process_cpu_seconds() - c0;
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  m.runs = r.runs;
  m.evaluations = r.evaluations;
  m.ok = r.status == solve_status::ok;
  m.message = r.message;
  m.error = scaled_error(r.acceleration, ref);
  return m;
}

model load_chain(int links, bool spatial) {
  chain_options c;
  c.links = links;
  c.spatial = spatial;
  return load_model_from_string(chain_model_text(c), spatial ? "spatial chain" : "chain");
}

// Least-squares slope of log y against log x.
double growth_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const auto k = static_cast<double>(x.size());
  if (x.size() < 2) return std::nan("");
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(std::max(y[i], 1e-300));
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

// Converged rows of one method and family: n, evaluations, CPU seconds.
struct growth_rows {
  std::vector<double> n, evaluations, cpu;
};

settings parse(int argc, char** argv) {
  settings st;
  const auto ints = [](const std::string& s) {
    std::vector<int> out;
    for (const auto& item : split(s)) out.push_back(std::stoi(item));
    return out;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--planar") st.planar = ints(next());
    if (a == "--spatial") st.spatial = ints(next());
    if (a == "--methods") st.methods = split(next());
    if (a == "--seed") st.seed = std::stoull(next());
    if (a == "--trace") st.trace = true;
    if (a == "--budget-per-n") st.budget_per_n = std::stoll(next());
  }
  for (const auto& m : st.methods) {
    if (m != "ga" && m != "cmaes" && m != "sade" && m != "cg" && m != "newton") {
      fmt::print(stderr, "unknown method '{}': use ga, cmaes, sade, cg, newton\n", m);
      std::exit(2);
    }
  }
  return st;
}

}  // namespace

int main(int argc, char** argv) {
  const settings st = parse(argc, argv);
  std::vector<std::pair<std::string, model>> models;
  for (int k : st.planar) models.emplace_back(fmt::format("chain {}", k), load_chain(k, false));
  for (int k : st.spatial) models.emplace_back(fmt::format("spatial {}", k), load_chain(k, true));
  fmt::print(
      "| model | n | m | method | outer runs | evaluations | wall s | CPU s | error | status |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  std::map<std::pair<std::string, int>, growth_rows> growth;
  for (const auto& [name, mdl] : models) {
    const constrained_system s =
        mdl.evaluate(mdl.initial_positions(), mdl.initial_velocities(), 0.0);
    const Eigen::VectorXd ref = make_solver("gigsp")->solve(s).acceleration;
    const int family = name.rfind("spatial", 0) == 0 ? 1 : 0;
    for (const auto& method : st.methods) {
      if (st.trace) fmt::print("{} with {}:\n", name, method);
      const measured m = run_method(s, ref, method, st);
      fmt::print("| {} | {} | {} | {} | {} | {} | {:.3g} | {:.3g} | {:.2g} | {} |\n", name,
                 s.coordinates(), s.constraints(), method, m.runs, m.evaluations, m.seconds,
                 m.cpu_seconds, m.error, m.ok ? "ok" : "not converged");
      if (!m.ok) fmt::print(stderr, "{} {}: {}\n", name, method, m.message);
      std::fflush(stdout);
      if (!m.ok) continue;
      growth_rows& g = growth[{method, family}];
      g.n.push_back(s.coordinates());
      g.evaluations.push_back(static_cast<double>(m.evaluations));
      g.cpu.push_back(m.cpu_seconds);
    }
  }
  fmt::print("\nGrowth exponents against n (least squares of log-log, converged rows only):\n");
  for (const auto& [key, g] : growth) {
    if (g.n.size() < 2) continue;
    fmt::print("  {} {}: evaluations n^{:.2f}, CPU time n^{:.2f} (n = {}..{}, {} rows)\n",
               key.second == 0 ? "planar" : "spatial", key.first,
               growth_exponent(g.n, g.evaluations), growth_exponent(g.n, g.cpu), g.n.front(),
               g.n.back(), g.n.size());
  }
  return 0;
}
