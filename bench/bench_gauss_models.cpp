// Gauss by GA on every model: per model, evaluations and wall time of a cold solve and of the
// warm solves of a short RK4 run, the error against GIGSP, GIGSP's own time per solve, and
// (when pagmo2 is installed: ./setup.sh --bench) pagmo's sade and cmaes on the same Z1 (the
// first run's weights and box, in accelerations) with the same budget as the cold solve.
// pagmo minimises Z1 with fixed weights, so its best error is the penalty's bias (the last
// column); the figure in brackets is its distance to that minimiser. Prints one Markdown table. Run
// by hand from the repository root:
//   build/bench/bench_gauss_models [--islands K] [--seed S] [--steps N] [--preset NAME]
#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_measures.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/gauss/gauss_objective.hpp"
#include "kinevo/mechanics/model/chain_model.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

#ifdef KINEVO_HAVE_PAGMO
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#endif

namespace {

using namespace kinevo::mechanics;
using namespace kinevo::gauss;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

using kinevo::bench::scaled_error;

struct named_model {
  std::string name;
  model m;
};

std::vector<named_model> models() {
  std::vector<named_model> out;
  for (const std::string f :
       {"pendulum", "double_pendulum", "fivebar_redundant", "fourbar_kinematics", "haug_fourbar",
        "slider_crank", "seven_link_loop", "spherical_pendulum_flywheel", "spatial_fivebar"}) {
    out.push_back({f, load_model("examples/" + f + ".toml")});
  }
  for (const int links : {2, 5, 10, 20}) {
    chain_options c;
    c.links = links;
    out.push_back(
        {fmt::format("chain {}", links), load_model_from_string(chain_model_text(c), "chain")});
  }
  for (const int links : {2, 5}) {
    chain_options c;
    c.links = links;
    c.spatial = true;
    out.push_back({fmt::format("spatial chain {}", links),
                   load_model_from_string(chain_model_text(c), "spatial chain")});
  }
  return out;
}

// Z1 of the first cold run as a plain box-bounded problem in accelerations.
struct z1_problem {
  gauss_terms terms;
  Eigen::VectorXd lower, upper;
#ifdef KINEVO_HAVE_PAGMO
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    const Eigen::Map<const Eigen::VectorXd> a(x.data(), static_cast<Eigen::Index>(x.size()));
    return {terms.penalised(a)};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{lower.data(), lower.data() + lower.size()},
            {upper.data(), upper.data() + upper.size()}};
  }
#endif
};

// The first box of a cold default solve, in accelerations: centre a_f, the whitened cube's
// extent along every coordinate.
z1_problem first_run_problem(const constrained_system& s, const gauss_ga_options& o) {
  const int m = s.constraints();
  Eigen::VectorXd scales = Eigen::VectorXd::Ones(m);
  if (m > 0) {
    const Eigen::LLT<Eigen::MatrixXd> llt(s.mass);
    const Eigen::MatrixXd x = llt.matrixL().solve(s.jacobian.transpose());
    for (int i = 0; i < m; ++i) {
      const double d = x.col(i).squaredNorm();
      scales(i) = d > 1e-300 ? 1.0 / d : 1.0;
    }
  }
  z1_problem p{
      gauss_terms::from_system(s, o.penalty.weight * scales, Eigen::VectorXd::Zero(m)), {}, {}};
  const Eigen::MatrixXd h = p.terms.mass + 2.0 * p.terms.jacobian.transpose() *
                                               p.terms.weights.asDiagonal() * p.terms.jacobian;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(h);
  const Eigen::MatrixXd t =
      eig.eigenvectors() * eig.eigenvalues().cwiseSqrt().cwiseInverse().asDiagonal();
  const Eigen::VectorXd c = p.terms.free_accel;
  const Eigen::VectorXd r = p.terms.jacobian * c - p.terms.rhs;
  double d2 = 0.0;
  for (int i = 0; i < m; ++i) d2 += r(i) * r(i) * scales(i);
  d2 += 2.0 * r.dot(p.terms.weights.cwiseProduct(r));
  const double radius = std::max(o.box_margin * std::sqrt(d2), 1e-12);
  const Eigen::VectorXd extent = radius * t.cwiseAbs().rowwise().sum();
  p.lower = c - extent;
  p.upper = c + extent;
  return p;
}

struct row {
  std::string name;
  int n = 0, m = 0;
  long long cold_evals = 0;
  double cold_ms = 0.0, cold_error = 0.0;
  int cold_runs = 0;
  long long warm_evals_median = 0;
  double warm_ms_median = 0.0, warm_error_max = 0.0;
  int warm_unconverged = 0;
  double gigsp_us = 0.0;
  double sade_error = -1.0, cmaes_error = -1.0, z1_floor = 0.0;
  double sade_to_min = -1.0, cmaes_to_min = -1.0;  // distance to the Z1 minimiser
};

// RK4 steps with the GA solver, each stage's acceleration checked against GIGSP at the same
// state: the warm solves a simulation makes.
void warm_run(const model& mdl, gauss_ga_solver& ga, int steps, row& out) {
  auto gigsp = make_solver("gigsp");
  Eigen::VectorXd q = mdl.initial_positions(), qd = mdl.initial_velocities();
  const double h = 1e-3;
  std::vector<long long> evals;
  std::vector<double> ms;
  const auto accel = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, double t) {
    const constrained_system s = mdl.evaluate(qq, vv, t);
    const auto t0 = clock_type::now();
    const acceleration_result r = ga.solve(s);
    ms.push_back(1e3 * seconds_since(t0));
    evals.push_back(r.evaluations);
    if (r.status != solve_status::ok) ++out.warm_unconverged;
    out.warm_error_max =
        std::max(out.warm_error_max, scaled_error(r.acceleration, gigsp->solve(s).acceleration));
    return r.acceleration.size() == qq.size() ? r.acceleration
                                              : Eigen::VectorXd(Eigen::VectorXd::Zero(qq.size()));
  };
  for (int k = 0; k < steps; ++k) {
    const double t = k * h;
    const Eigen::VectorXd a1 = accel(q, qd, t);
    const Eigen::VectorXd a2 = accel(q + 0.5 * h * qd, qd + 0.5 * h * a1, t + 0.5 * h);
    const Eigen::VectorXd a3 =
        accel(q + 0.5 * h * qd + 0.25 * h * h * a1, qd + 0.5 * h * a2, t + 0.5 * h);
    const Eigen::VectorXd a4 = accel(q + h * qd + 0.5 * h * h * a2, qd + h * a3, t + h);
    q += h * qd + h * h / 6.0 * (a1 + a2 + a3);
    qd += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  // The first solve is the cold one: warm figures from the second on.
  evals.erase(evals.begin());
  ms.erase(ms.begin());
  std::sort(evals.begin(), evals.end());
  std::sort(ms.begin(), ms.end());
  out.warm_evals_median = evals[evals.size() / 2];
  out.warm_ms_median = ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int islands = 1, steps = 10;
  unsigned long long seed = 1;
  std::string preset = "default";
  std::string metric_root;  // empty: the preset's
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--islands") islands = std::atoi(argv[i + 1]);
    if (k == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--steps") steps = std::atoi(argv[i + 1]);
    if (k == "--preset") preset = argv[i + 1];
    if (k == "--metric-root") metric_root = argv[i + 1];
  }
  gauss_ga_options o = gauss_ga_preset(preset);
  if (!metric_root.empty()) o.ga.metric_root_kind = kinevo::ga::parse_metric_root(metric_root);
  o.islands.islands = islands;
  o.islands.seed = seed;
  fmt::print(
      "| model | n | m | cold runs | cold evals | cold ms | cold error | warm evals (median) | "
      "warm "
      "ms (median) | warm error (max) | GIGSP us/solve | pagmo sade error (to Z1 min) | pagmo "
      "cmaes "
      "error (to Z1 min) | Z1 minimiser error "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (auto& [name, mdl] : models()) {
    row r;
    r.name = name;
    const constrained_system s =
        mdl.evaluate(mdl.initial_positions(), mdl.initial_velocities(), 0.0);
    r.n = s.coordinates();
    r.m = s.constraints();
    auto gigsp = make_solver("gigsp");
    const Eigen::VectorXd ref = gigsp->solve(s).acceleration;
    {
      const int reps = 2000;
      const auto t0 = clock_type::now();
      for (int k = 0; k < reps; ++k) (void)gigsp->solve(s);
      r.gigsp_us = 1e6 * seconds_since(t0) / reps;
    }
    {
      gauss_ga_solver cold(o);
      const auto t0 = clock_type::now();
      const acceleration_result c = cold.solve(s);
      r.cold_ms = 1e3 * seconds_since(t0);
      r.cold_evals = c.evaluations;
      r.cold_runs = c.runs;
      r.cold_error = scaled_error(c.acceleration, ref);
    }
    {
      gauss_ga_solver ga(o);
      warm_run(mdl, ga, steps, r);
    }
    const z1_problem zp = first_run_problem(s, o);
    const Eigen::VectorXd zmin = zp.terms.minimiser();
    r.z1_floor = scaled_error(zmin, ref);
#ifdef KINEVO_HAVE_PAGMO
    const auto generations = static_cast<unsigned>(std::max<long long>(1, r.cold_evals / 20));
    {
      pagmo::population pop(pagmo::problem(zp), 20, static_cast<unsigned>(seed));
      pop = pagmo::algorithm(pagmo::sade(generations, 2, 1, 1e-300, 1e-300)).evolve(pop);
      const auto& x = pop.champion_x();
      r.sade_error = scaled_error(Eigen::Map<const Eigen::VectorXd>(x.data(), r.n), ref);
      r.sade_to_min = scaled_error(Eigen::Map<const Eigen::VectorXd>(x.data(), r.n), zmin);
    }
    {
      pagmo::population pop(pagmo::problem(zp), 20, static_cast<unsigned>(seed));
      pagmo::cmaes cm(generations, -1, -1, -1, -1, 0.5, 1e-300, 1e-300, false, true);
      pop = pagmo::algorithm(cm).evolve(pop);
      const auto& x = pop.champion_x();
      r.cmaes_error = scaled_error(Eigen::Map<const Eigen::VectorXd>(x.data(), r.n), ref);
      r.cmaes_to_min = scaled_error(Eigen::Map<const Eigen::VectorXd>(x.data(), r.n), zmin);
    }
#endif
    const auto opt = [](double v, double to_min) {
      return v < 0.0 ? std::string("-") : fmt::format("{:.1e} ({:.0e})", v, to_min);
    };
    fmt::print(
        "| {} | {} | {} | {} | {} | {:.1f} | {:.1e} | {} | {:.2f} | {:.1e}{} | {:.2f} | {} | {} | "
        "{:.1e} |\n",
        r.name, r.n, r.m, r.cold_runs, r.cold_evals, r.cold_ms, r.cold_error, r.warm_evals_median,
        r.warm_ms_median, r.warm_error_max,
        r.warm_unconverged > 0 ? fmt::format(" ({} not converged)", r.warm_unconverged) : "",
        r.gigsp_us, opt(r.sade_error, r.sade_to_min), opt(r.cmaes_error, r.cmaes_to_min),
        r.z1_floor);
    std::fflush(stdout);
  }
  return 0;
}
