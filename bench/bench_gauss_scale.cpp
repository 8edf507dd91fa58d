// Gauss by GA at scale, and the gradient methods on the same augmented-Lagrangian objective:
// per model, evaluations and wall time of a cold solve and of the warm solves of a short RK4
// run, the error against GIGSP; the same for preconditioned CG and Newton
// (gauss/gradient_baselines.hpp). Prints one Markdown table and the fitted growth exponents.
// Run by hand from the repository root:
//   build/bench/bench_gauss_scale [--islands K] [--seed S] [--steps N] [--planar 50,100,200]
//     [--spatial 20,50] [--trace MODEL [--snapshots]] [--cold-only]
//   (MODEL: "chain N", "spatial N" or an example name; --cold-only: no warm solves;
//   --snapshots: also the best's distance to its run's final best every 40 generations)
// Tuning flags (ablation): --weight W --pop-per-n P --de-weight F --crossover-rate C
//   --max-runs R --max-runs-per-n Q --budget-per-n E --preset NAME --momentum --no-momentum
//   --probe-runs K
//   --budget-follows-pop --stall F --stall-window E --metric (pcx in a learned metric)
//   --migrations-per-run K --migrants M --threads T (islands' exchanges, worker threads)
//   --sigma-eta S --metric-lazy K (decompositions K times rarer than CMA-ES's rule)
//   --sigma-eta-reference K (PCX's sigma_eta falls as sqrt(K / n) above n = K; 0: off)
//   --update-on-face (multipliers updated after a run whose best pressed on a face)
//   --move-bound-weights (the multiplier move also bounded by sqrt(dlambda^T (2W)^-1 dlambda))
//   --carry-population MODE (translate, rescale or fill: each run after the first starts from
//   the previous run's populations moved to the new centre, ga/population_carry.hpp)
#include <fmt/format.h>
#include <functional>
#include <map>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "bench/bench_measures.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/gauss_objective.hpp"
#include "kinevo/gauss/gradient_baselines.hpp"
#include "kinevo/gauss/mass_scaling.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace {

using namespace kinevo::mechanics;
using namespace kinevo::gauss;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

using kinevo::bench::process_cpu_seconds;
using kinevo::bench::scaled_error;

kinevo::ga::carry_mode parse_carry(const std::string& s) {
  using kinevo::ga::carry_mode;
  if (s == "fill") return carry_mode::fill;
  if (s == "off") return carry_mode::off;
  throw kinevo::io::option_error("--carry-population", "must be off or fill, not '" + s + "'");
}

std::vector<int> parse_list(const std::string& s) {
  std::vector<int> out;
  std::size_t p = 0;
  while (p < s.size()) {
    const std::size_t q = s.find(',', p);
    const std::string item = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
    if (!item.empty()) out.push_back(std::stoi(item));
    if (q == std::string::npos) break;
    p = q + 1;
  }
  return out;
}

model load_named(const std::string& name) {
  if (name.rfind("chain ", 0) == 0 || name.rfind("spatial ", 0) == 0) {
    chain_options c;
    c.spatial = name.rfind("spatial ", 0) == 0;
    c.links = std::stoi(name.substr(name.find(' ') + 1));
    return load_model_from_string(chain_model_text(c), name);
  }
  return load_model("examples/" + name + ".toml");
}

struct settings {
  gauss_ga_options ga = gauss_ga_preset("default");
  int steps = 3;
  bool trace = false;
  bool cold_only = false;  // the largest models: the cold solve alone
};

struct measured {
  long long evaluations = 0;
  double seconds = 0.0, error = 0.0;
  bool ok = false;
  int runs = 0;
  double cpu_seconds = 0.0;
};

bool print_snapshots = false;

void print_trace(const gauss_ga_solver& ga) {
  if (print_snapshots) {
    // Per run: the best's distance (max norm) to the run's final best, every 40th generation.
    const auto& snaps = ga.last_snapshots();
    for (std::size_t i = 0; i < snaps.size(); ++i) {
      const auto& sn = snaps[i];
      const auto& last = ga.last_runs()[static_cast<std::size_t>(sn.run - 1)].acceleration;
      if (sn.generation % 40 == 0 || i + 1 == snaps.size() || snaps[i + 1].run != sn.run) {
        fmt::print("    run {:2d} gen {:5d} evals {:8d} |a - a_run| {:.3g}\n", sn.run,
                   sn.generation, sn.evaluations, (sn.acceleration - last).cwiseAbs().maxCoeff());
      }
    }
  }
  for (const auto& r : ga.last_runs()) {
    fmt::print(
        "  run {:2d}: radius {:.3g}  change {:.3g}  residual {:.3g}  z1 {:.12g}  evals {}{}\n",
        r.run, r.radii.cwiseAbs().maxCoeff(), r.change, r.max_residual, r.z1, r.evaluations,
        r.near_face ? "  (face)" : "");
  }
}

// A cold solve and the warm solves of `steps` RK4 steps (stages checked against GIGSP).
struct ga_row {
  measured cold;
  std::vector<measured> warm;
};

ga_row run_ga(const model& mdl, const settings& st) {
  gauss_ga_options o = st.ga;
  o.record_trace = st.trace;
  gauss_ga_solver ga(o);
  auto gigsp = make_solver("gigsp");
  ga_row out;
  Eigen::VectorXd q = mdl.initial_positions(), qd = mdl.initial_velocities();
  const double h = 1e-3;
  int solves = 0;
  const auto accel = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, double t) {
    const constrained_system s = mdl.evaluate(qq, vv, t);
    const auto t0 = clock_type::now();
    const double c0 = process_cpu_seconds();
    const acceleration_result r = ga.solve(s);
    measured m{r.evaluations, seconds_since(t0), 0.0, r.status == solve_status::ok, r.runs};
    m.cpu_seconds = process_cpu_seconds() - c0;
    const acceleration_result ref = gigsp->solve(s);
    m.error = scaled_error(r.acceleration, ref.acceleration);
    if (st.trace) {
      fmt::print("solve {} ({}): {} evals, {} runs, {:.3g} s ({:.3g} s CPU), error {:.3g}{}\n",
                 solves, solves == 0 ? "cold" : "warm", m.evaluations, m.runs, m.seconds,
                 m.cpu_seconds, m.error, m.ok ? "" : "  " + r.message);
      print_trace(ga);
    }
    if (solves++ == 0) {
      out.cold = m;
    } else {
      out.warm.push_back(m);
    }
    return ref.acceleration;
  };
  if (st.cold_only) {
    accel(q, qd, 0.0);
    return out;
  }
  for (int step = 0; step < st.steps; ++step) {
    const double t = step * h;
    const Eigen::VectorXd a1 = accel(q, qd, t);
    const Eigen::VectorXd a2 = accel(q + 0.5 * h * qd, qd + 0.5 * h * a1, t + 0.5 * h);
    const Eigen::VectorXd a3 =
        accel(q + 0.5 * h * qd + 0.25 * h * h * a1, qd + 0.5 * h * a2, t + 0.5 * h);
    const Eigen::VectorXd a4 = accel(q + h * qd + 0.5 * h * h * a2, qd + h * a3, t + h);
    q += h * qd + h * h / 6.0 * (a1 + a2 + a3);
    qd += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  return out;
}

measured run_gradient(const model& mdl, gradient_method method) {
  const constrained_system s = mdl.evaluate(mdl.initial_positions(), mdl.initial_velocities(), 0.0);
  gradient_baseline_options o;
  o.method = method;
  const auto t0 = clock_type::now();
  const acceleration_result r = solve_by_gradients(s, o);
  measured m{r.evaluations, seconds_since(t0), 0.0, r.status == solve_status::ok, r.runs};
  m.error = scaled_error(r.acceleration, make_solver("gigsp")->solve(s).acceleration);
  return m;
}

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Least-squares slope of log y against log x.
double growth_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const auto k = static_cast<double>(x.size());
  if (k < 2) return std::nan("");
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

// One GA run on the first inner problem (lambda = 0) in mass-scaled axes: how far its best is
// from the inner minimiser, relative to the box (the resolution of one run).
void inner_experiment(const model& mdl, const settings& st, long long budget) {
  const constrained_system s = mdl.evaluate(mdl.initial_positions(), mdl.initial_velocities(), 0.0);
  const int n = s.coordinates(), m = s.constraints();
  const mass_scaling ms = mass_scaling::of(s);
  gauss_terms t = gauss_terms::from_system(s, Eigen::VectorXd::Ones(m), Eigen::VectorXd::Zero(m));
  t.weights = st.ga.penalty.weight * row_scales(t.jacobian_sparse, ms);
  const Eigen::VectorXd exact = t.minimiser();
  const double radius =
      4.0 * std::sqrt(2.0 * (exact - t.free_accel).dot(t.mass * (exact - t.free_accel)) + 1e-30);
  const Eigen::VectorXd half = Eigen::VectorXd::Constant(n, radius);
  const gauss_objective obj(t, t.free_accel, half, ms.basis);
  kinevo::ga::ga_options g = st.ga.ga;
  g.population =
      std::max(g.population, static_cast<int>(std::ceil(st.ga.population_per_coordinate * n)));
  kinevo::ga::island_model model(g, st.ga.islands);
  kinevo::ga::termination lim;
  lim.max_generations = 0;
  lim.max_evaluations = budget;
  const auto r =
      model.run(obj, kinevo::ga::search_box::around(Eigen::VectorXd::Zero(n), half), lim);
  const Eigen::VectorXd a = obj.acceleration_of(r.best_x);
  const Eigen::VectorXd x_exact = ms.basis.transpose() * (s.mass * (exact - t.free_accel));
  fmt::print("n {} pop {} budget {}: |x - x*| / radius = {:.3g}  (|x*| / radius {:.3g})\n", n,
             g.population, budget, (r.best_x - x_exact).norm() / radius, x_exact.norm() / radius);
  (void)a;
}

}  // namespace

int main(int argc, char** argv) {
  settings st;
  std::vector<int> planar = {5, 10, 20, 50, 100, 200};
  std::vector<int> spatial = {5, 10, 20, 50};
  std::string trace_model;
  bool gradients = true;
  long long inner = 0;
  int ga_max_n = 1 << 30;  // skip the GA above this n (the gradient methods still run)
  int i = 1;
  const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
  // Every option by name: an unknown one is refused (a mistyped flag would otherwise run the
  // whole default table for an hour).
  const std::map<std::string, std::function<void()>> options = {
      {"--islands", [&] { st.ga.islands.islands = std::stoi(next()); }},
      {"--seed", [&] { st.ga.islands.seed = std::stoull(next()); }},
      {"--steps", [&] { st.steps = std::stoi(next()); }},
      {"--cold-only", [&] { st.cold_only = true; }},
      {"--planar", [&] { planar = parse_list(next()); }},
      {"--spatial", [&] { spatial = parse_list(next()); }},
      {"--trace", [&] { trace_model = next(); }},
      {"--no-gradients", [&] { gradients = false; }},
      {"--inner", [&] { inner = std::stoll(next()); }},
      {"--ga-max-n", [&] { ga_max_n = std::stoi(next()); }},
      {"--preset",
       [&] {
         const auto islands = st.ga.islands;
         st.ga = gauss_ga_preset(next());
         st.ga.islands = islands;
       }},
      {"--weight", [&] { st.ga.penalty.weight = std::stod(next()); }},
      {"--g3-pcx",
       [&] {
         st.ga.ga.crossover = kinevo::ga::crossover_method::pcx;
         st.ga.ga.model = kinevo::ga::generation_model::g3;
       }},
      {"--parents", [&] { st.ga.ga.parents = std::stoi(next()); }},
      {"--offspring", [&] { st.ga.ga.offspring = std::stoi(next()); }},
      {"--sigma", [&] { st.ga.ga.pcx_sigma_zeta = st.ga.ga.pcx_sigma_eta = std::stod(next()); }},
      {"--sigma-eta", [&] { st.ga.ga.pcx_sigma_eta = std::stod(next()); }},
      {"--metric", [&] { st.ga.ga.metric = kinevo::ga::metric_model::learned; }},
      {"--metric-lazy", [&] { st.ga.ga.metric_lazy = std::stoi(next()); }},
      {"--metric-root", [&] { st.ga.ga.metric_root_kind = kinevo::ga::parse_metric_root(next()); }},
      {"--pop-per-n", [&] { st.ga.population_per_coordinate = std::stod(next()); }},
      {"--population", [&] { st.ga.ga.population = std::stoi(next()); }},
      {"--de-weight", [&] { st.ga.ga.de_weight = std::stod(next()); }},
      {"--crossover-rate", [&] { st.ga.ga.crossover_rate = std::stod(next()); }},
      {"--max-runs", [&] { st.ga.max_runs = std::stoi(next()); }},
      {"--max-runs-per-n", [&] { st.ga.max_runs_per_coordinate = std::stod(next()); }},
      {"--sigma-eta-reference", [&] { st.ga.sigma_eta_reference = std::stoi(next()); }},
      {"--update-on-face", [&] { st.ga.hold_multipliers_on_face = false; }},
      {"--move-bound-weights", [&] { st.ga.move_bound_from_weights = true; }},
      {"--carry-population", [&] { st.ga.carry_population = parse_carry(next()); }},
      {"--momentum", [&] { st.ga.multiplier_momentum = true; }},
      {"--no-momentum", [&] { st.ga.multiplier_momentum = false; }},
      {"--probe-runs", [&] { st.ga.probe_runs = std::stoi(next()); }},
      {"--budget-per-n", [&] { st.ga.evaluations_per_coordinate = std::stoll(next()); }},
      {"--budget", [&] { st.ga.evaluations_per_run = std::stoll(next()); }},
      {"--shrink", [&] { st.ga.shrink = std::stod(next()); }},
      {"--resolution", [&] { st.ga.run_resolution = std::stod(next()); }},
      {"--margin", [&] { st.ga.box_margin = std::stod(next()); }},
      {"--budget-follows-pop", [&] { st.ga.budget_follows_population = true; }},
      {"--stall", [&] { st.ga.stall_fraction = std::stod(next()); }},
      {"--stall-window", [&] { st.ga.stall_window = std::stod(next()); }},
      {"--snapshots", [&] { print_snapshots = true; }},
      {"--migrations-per-run", [&] { st.ga.migrations_per_run = std::stoi(next()); }},
      {"--migrants", [&] { st.ga.islands.migrants = std::stoi(next()); }},
      {"--threads", [&] { st.ga.islands.threads = std::stoi(next()); }},
  };
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    const auto option = options.find(a);
    if (option == options.end()) {
      fmt::print(stderr, "bench_gauss_scale: unknown option '{}'\n", a);
      return 2;
    }
    try {
      option->second();
    } catch (const std::exception& e) {
      fmt::print(stderr, "bench_gauss_scale: {}: {}\n", a, e.what());
      return 2;
    }
  }
  if (inner > 0) {
    inner_experiment(load_named(trace_model), st, inner);
    return 0;
  }
  if (!trace_model.empty()) {
    st.trace = true;
    const model mdl = load_named(trace_model);
    run_ga(mdl, st);
    if (gradients) {
      for (auto method : {gradient_method::conjugate_gradients, gradient_method::newton}) {
        const measured g = run_gradient(mdl, method);
        fmt::print("{}: {} evaluations, {} outer, {:.3g} s, error {:.3g}{}\n", to_string(method),
                   g.evaluations, g.runs, g.seconds, g.error, g.ok ? "" : " NOT CONVERGED");
      }
    }
    return 0;
  }
  std::vector<std::string> names;
  for (int k : planar) names.push_back(fmt::format("chain {}", k));
  for (int k : spatial) names.push_back(fmt::format("spatial {}", k));
  fmt::print(
      "| model | n | m | GA cold runs | GA cold evals | GA cold s (CPU s) | GA cold error | GA "
      "warm "
      "evals (median) | GA warm s (CPU s, median) | GA warm max error | CG evals | CG s | CG error "
      "| Newton evals | Newton s | Newton error |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<double> xs[2], xw[2], xg[2], ga_cold_e[2], ga_warm_e[2], cg_e[2], ga_cold_s[2],
      ga_warm_s[2], cg_s[2], nt_s[2];
  for (const auto& name : names) {
    const model mdl = load_named(name);
    const constrained_system s0 =
        mdl.evaluate(mdl.initial_positions(), mdl.initial_velocities(), 0.0);
    const bool ga_runs = s0.coordinates() <= ga_max_n;
    const ga_row g = ga_runs ? run_ga(mdl, st) : ga_row{};
    std::vector<long long> we;
    std::vector<double> ws, wc;
    double werr = 0.0;
    int wbad = 0;
    for (const auto& w : g.warm) {
      we.push_back(w.evaluations);
      ws.push_back(w.seconds);
      wc.push_back(w.cpu_seconds);
      werr = std::max(werr, w.error);
      wbad += w.ok ? 0 : 1;
    }
    measured cg, nt;
    if (gradients) {
      cg = run_gradient(mdl, gradient_method::conjugate_gradients);
      nt = run_gradient(mdl, gradient_method::newton);
    }
    const auto flag = [](const measured& m) { return m.ok ? "" : " (not converged)"; };
    if (!ga_runs) {
      fmt::print(
          "| {} | {} | {} | - | skipped (n > {}) | - | - | - | - | - | {} | {:.3g} | {:.2g}{} | {} "
          "| {:.3g} | {:.2g}{} |\n",
          name, s0.coordinates(), s0.constraints(), ga_max_n, cg.evaluations, cg.seconds, cg.error,
          flag(cg), nt.evaluations, nt.seconds, nt.error, flag(nt));
      std::fflush(stdout);
    }
    if (ga_runs)
      fmt::print(
          "| {} | {} | {} | {} | {}{} | {:.3g} ({:.3g}) | {:.2g} | {} | {:.3g} ({:.3g}) | {:.2g}{} "
          "| "
          "{} | {:.3g} | {:.2g}{} | {} | {:.3g} | {:.2g}{} |\n",
          name, s0.coordinates(), s0.constraints(), g.cold.runs, g.cold.evaluations, flag(g.cold),
          g.cold.seconds, g.cold.cpu_seconds, g.cold.error, median(we), median(ws), median(wc),
          werr, wbad > 0 ? fmt::format(" ({} not converged)", wbad) : "", cg.evaluations,
          cg.seconds, cg.error, flag(cg), nt.evaluations, nt.seconds, nt.error, flag(nt));
    std::fflush(stdout);
    const int k = name.rfind("spatial", 0) == 0 ? 1 : 0;
    xg[k].push_back(s0.coordinates());
    cg_e[k].push_back(static_cast<double>(cg.evaluations));
    cg_s[k].push_back(cg.seconds);
    nt_s[k].push_back(nt.seconds);
    if (!ga_runs || !g.cold.ok) continue;  // GA growth fitted over its converged rows only
    xs[k].push_back(s0.coordinates());
    ga_cold_e[k].push_back(static_cast<double>(g.cold.evaluations));
    ga_cold_s[k].push_back(g.cold.seconds);
    if (we.empty()) continue;  // --cold-only
    xw[k].push_back(s0.coordinates());
    ga_warm_e[k].push_back(static_cast<double>(median(we)));
    ga_warm_s[k].push_back(median(ws));
  }
  fmt::print(
      "\nGA preset: axes {}, weights {:g} (relative), crossover {}; {} islands, seed {}; "
      "population "
      "carry {}\n",
      to_string(st.ga.axes), st.ga.penalty.weight, kinevo::ga::to_string(st.ga.ga.crossover),
      st.ga.islands.islands, st.ga.islands.seed, static_cast<int>(st.ga.carry_population));
  for (int k = 0; k < 2; ++k) {
    const char* kind = k == 0 ? "Planar" : "Spatial";
    if (xs[k].size() >= 2) {
      fmt::print(
          "{} chains, growth exponents against n (converged GA rows): GA cold evaluations {:.2f}, "
          "GA cold time {:.2f}, GA warm evaluations {:.2f}, GA warm time {:.2f}\n",
          kind, growth_exponent(xs[k], ga_cold_e[k]), growth_exponent(xs[k], ga_cold_s[k]),
          growth_exponent(xw[k], ga_warm_e[k]), growth_exponent(xw[k], ga_warm_s[k]));
    }
    if (xg[k].size() >= 2) {
      fmt::print(
          "{} chains, growth exponents against n: CG evaluations {:.2f}, CG time {:.2f}, "
          "Newton time {:.2f}\n",
          kind, growth_exponent(xg[k], cg_e[k]), growth_exponent(xg[k], cg_s[k]),
          growth_exponent(xg[k], nt_s[k]));
    }
  }
  return 0;
}
