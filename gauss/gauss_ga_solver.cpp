#include "gauss/gauss_ga_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "ga/mpi_environment.hpp"
#include "ga/search_box.hpp"
#include "gauss/gauss_objective.hpp"

namespace kinevo::gauss {


namespace {

// The problem the range runs see: the current run's Gauss objective (replaced between runs,
// when no island is evaluating), optionally remembering the best candidate evaluated so far
// for the convergence figures. The lock is taken only when tracking.
class run_problem final : public ga::problem {
 public:
  explicit run_problem(bool track) : track_(track) {}

  void set(std::unique_ptr<gauss_objective> objective) {
    objective_ = std::move(objective);
    best_value_ = std::numeric_limits<double>::infinity();
    best_x_.resize(0);
  }
  const gauss_objective& objective() const { return *objective_; }

  int dimension() const override { return objective_->dimension(); }
  Eigen::VectorXd lower_bounds() const override { return objective_->lower_bounds(); }
  Eigen::VectorXd upper_bounds() const override { return objective_->upper_bounds(); }
  std::string name() const override { return objective_->name(); }

  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override {
    objective_->evaluate(x, values);
    if (!track_) return;
    Eigen::Index j = 0;
    const double v = values.minCoeff(&j);
    const std::lock_guard<std::mutex> lock(mutex_);
    // Ties go to the lexicographically smaller point, so the order islands report in does
    // not matter.
    const bool tie = v == best_value_ && best_x_.size() == x.rows() &&
                     std::lexicographical_compare(x.col(j).begin(), x.col(j).end(), best_x_.begin(),
                                                  best_x_.end());
    if (v < best_value_ || tie) {
      best_value_ = v;
      best_x_ = x.col(j);
    }
  }

  // Best point evaluated since set(); empty before the first evaluation.
  Eigen::VectorXd best() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return best_x_;
  }

 private:
  bool track_;
  std::unique_ptr<gauss_objective> objective_;
  mutable std::mutex mutex_;
  mutable double best_value_ = std::numeric_limits<double>::infinity();
  mutable Eigen::VectorXd best_x_;
};

double max_abs(const Eigen::VectorXd& v) {
  return v.size() == 0 ? 0.0 : v.cwiseAbs().maxCoeff();
}

// The smallest radius a box may have around centre c (lower < upper in floating point).
double radius_floor(const Eigen::VectorXd& c) {
  return 1e-13 * std::max(1.0, max_abs(c));
}

// The rows GIGSP's sweep refuses (generalized-inverse dissertation (GIGSP), appendix A): taken
// in order, a row is inconsistent when adding it to the rows kept so far leaves a least-squares
// residual, i.e. it depends on them but its right-hand side disagrees. A diagnosis only (the
// GA has already shown that the residual does not fall with w), so that both solvers name the
// same constraints.
std::vector<int> inconsistent_rows(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  std::vector<int> kept, out;
  const double tol = 1e-7 * (1.0 + b.cwiseAbs().maxCoeff());
  for (int i = 0; i < static_cast<int>(a.rows()); ++i) {
    kept.push_back(i);
    Eigen::MatrixXd sub(static_cast<Eigen::Index>(kept.size()), a.cols());
    Eigen::VectorXd rhs(static_cast<Eigen::Index>(kept.size()));
    for (std::size_t k = 0; k < kept.size(); ++k) {
      sub.row(static_cast<Eigen::Index>(k)) = a.row(kept[k]);
      rhs(static_cast<Eigen::Index>(k)) = b(kept[k]);
    }
    const Eigen::VectorXd x = sub.completeOrthogonalDecomposition().solve(rhs);
    if ((sub * x - rhs).cwiseAbs().maxCoeff() > tol) {
      kept.pop_back();
      out.push_back(i);
    }
  }
  return out;
}

}  // namespace

void gauss_ga_options::validate() const {
  ga.validate();
  islands.validate(ga);
  auto fail = [](const std::string& what) { throw std::invalid_argument("ga solver: " + what); };
  if (evaluations_per_run < 2LL * ga.population * islands.islands) {
    fail(
        fmt::format("evaluations_per_run = {} is less than two generations of all islands ({}): "
                    "raise it or lower the population",
                    evaluations_per_run, 2LL * ga.population * islands.islands));
  }
  if (max_runs < 1) fail("max_runs must be at least 1");
  if (!(cold_radius > 0.0) || !std::isfinite(cold_guess)) fail("cold_radius must be positive");
  if (!(shrink > 0.0 && shrink <= 1.0)) fail("shrink must be in (0, 1]");
  for (double r : radii_per_run) {
    if (!(r > 0.0) || !std::isfinite(r)) fail("every entry of radii_per_run must be positive");
  }
  if (warm_history < 1) fail("warm_history must be at least 1");
  if (warm_cycle < 1) fail("warm_cycle must be at least 1");
  if (warm_order < 0 || warm_order > 2) fail("warm_order must be 0, 1 or 2");
  if (!(warm_resolution >= 0.0 && warm_resolution < 1.0)) {
    fail("warm_resolution must be in [0, 1)");
  }
  if (!(warm_factor > 0.0) || !(warm_min_radius > 0.0)) {
    fail("warm_factor and warm_min_radius must be positive");
  }
  if (!(tolerance >= 0.0)) fail("tolerance must be >= 0");
  if (!(inconsistency_tolerance > 0.0)) fail("inconsistency_tolerance must be positive");
}

std::vector<std::string> gauss_ga_preset_names() {
  return {"default", "thesis"};
}

gauss_ga_options gauss_ga_preset(const std::string& name) {
  gauss_ga_options o;
  if (name == "thesis") {
    o.ga = ga::gaucsd_options();
    o.ga.population = 100;
    o.ga.bits_per_variable = 16;
    o.ga.crossover_points = 2;
    o.ga.crossover_rate = 0.6;
    o.ga.bit_mutation_rate = 0.001;
    o.evaluations_per_run = 6400;
    o.penalty.kind = penalty_kind::fixed;
    o.penalty.weight = 1e6;  // eq. 5.18
    o.cold_radius = 50.0;
    // r = 50 in run 1 and r = 10 in run 2 are printed; later runs shrink by ten likewise.
    o.radii_per_run = {50.0, 10.0, 1.0, 0.1, 0.01};
    o.shrink = 0.1;
    o.max_runs = 5;
    o.tolerance = 0.0;         // the seed always makes its five runs
    o.principal_axes = false;  // GAucsd searched the accelerations themselves
    o.warm_resolution = 0.0;   // runs are compared, never accepted alone
    o.scaled_axes = false;
    return o;
  }
  if (name != "default") {
    throw std::invalid_argument(fmt::format("unknown ga preset '{}': use default or thesis", name));
  }
  // Tuned on the double pendulum at t = 0 (10 seeds of 10 at 1e-9 with 2 islands): real
  // genes, BLX-0.3 crossover and a fine polynomial mutation resolve about 1e-3 of the box per
  // run of 6400 evaluations. W = 3e3 keeps H = M + 2 A^T W A moderately conditioned (the GA
  // loses precision along the stiff constraint directions when W is large), and multiplier
  // updates remove the O(1/w) bias of the penalty after the first run. Run 1's answer is
  // bias-limited (~0.05), hence the sharp drop to 0.5 in run 2, then x0.02 per run.
  o.ga.genes = ga::encoding::real;
  o.ga.population = 20;
  o.ga.selection = ga::selection_method::tournament;
  o.ga.tournament_size = 2;
  o.ga.crossover = ga::crossover_method::blx;
  o.ga.crossover_rate = 0.9;
  o.ga.blx_alpha = 0.3;
  o.ga.mutation = ga::mutation_method::polynomial;
  o.ga.polynomial_eta = 100.0;
  o.ga.elites = 2;
  o.penalty.kind = penalty_kind::multipliers;
  o.penalty.weight = 3e4;
  o.evaluations_per_run = 6400;
  o.cold_radius = 50.0;
  o.radii_per_run = {50.0, 0.5, 0.01, 2e-4, 1e-6};
  o.shrink = 0.02;
  o.max_runs = 5;
  o.tolerance = 1e-8;
  return o;
}

gauss_ga_solver::gauss_ga_solver(gauss_ga_options options) : options_(std::move(options)) {
  options_.validate();
  model_ = std::make_unique<ga::island_model>(options_.ga, options_.islands);
}

gauss_ga_solver::~gauss_ga_solver() = default;

bool gauss_ga_solver::is_root() const {
  return model_->is_root();
}

void gauss_ga_solver::reset() {
  previous_.resize(0);
  recent_errors_.clear();
  history_.clear();
}

namespace {

// Under MPI every rank must give the GA the same problem, bit for bit; a model evaluated on
// each rank need not be (the last bit of a sum can depend on the process). Rank 0's numbers
// are sent to all.
void share_rank0_system(constrained_system& s) {
  if (ga::mpi_environment::size() < 2) return;
  const auto n = s.mass.rows();
  const auto m = s.jacobian.rows();
  std::vector<double> buf;
  buf.reserve(static_cast<std::size_t>(n * n + n + m * n + m));
  buf.insert(buf.end(), s.mass.data(), s.mass.data() + n * n);
  buf.insert(buf.end(), s.force.data(), s.force.data() + n);
  buf.insert(buf.end(), s.jacobian.data(), s.jacobian.data() + m * n);
  buf.insert(buf.end(), s.rhs.data(), s.rhs.data() + m);
  ga::mpi_environment::broadcast_from_root(buf);
  const double* p = buf.data();
  for (Eigen::Ref<Eigen::MatrixXd> part :
       {Eigen::Ref<Eigen::MatrixXd>(s.mass), Eigen::Ref<Eigen::MatrixXd>(s.force),
        Eigen::Ref<Eigen::MatrixXd>(s.jacobian), Eigen::Ref<Eigen::MatrixXd>(s.rhs)}) {
    std::copy(p, p + part.size(), part.data());
    p += part.size();
  }
}

}  // namespace

acceleration_result gauss_ga_solver::solve(const constrained_system& given) {
  constrained_system shared = given;
  share_rank0_system(shared);
  const constrained_system& system = shared;
  const int n = system.coordinates();
  const int m = system.constraints();
  if (n < 1) throw std::invalid_argument("ga solver: the system has no coordinates");
  gauss_penalty_schedule schedule(options_.penalty, system.constraint_names, m);
  const bool warm = options_.warm_start && previous_.size() == n;
  if (!warm) history_.clear();
  // Prediction of this solve from the same stage of the last steps (see warm_cycle).
  Eigen::VectorXd predicted = previous_;
  if (warm) {
    const auto c = static_cast<std::size_t>(options_.warm_cycle);
    const std::size_t have = history_.size();
    std::vector<const Eigen::VectorXd*> same;  // same stage, newest first
    for (std::size_t j = 1; j <= static_cast<std::size_t>(options_.warm_order) + 1; ++j) {
      if (have < j * c) break;
      const Eigen::VectorXd& h = history_[have - j * c];
      if (h.size() != n) break;
      same.push_back(&h);
    }
    // Newton's backward differences for equally spaced steps, only once the whole history
    // exists: a lower degree from older steps can be worse than the previous acceleration,
    // and the box (sized from the previous predictor's errors) would then miss the answer.
    if (same.size() == static_cast<std::size_t>(options_.warm_order) + 1) {
      if (same.size() == 1) predicted = *same[0];
      if (same.size() == 2) predicted = 2.0 * *same[0] - *same[1];
      if (same.size() == 3) predicted = 3.0 * *same[0] - 3.0 * *same[1] + *same[2];
    }
  }
  if (warm && m > 0 && schedule.kind() == penalty_kind::multipliers) {
    // Warm multipliers: the least-squares estimate A^T lambda = -M (a_pred - a_f) at this
    // state (the constraint force of the predicted acceleration, eq. 2.18). Carrying the last
    // solve's lambda instead feeds each solve's GA noise (amplified by 2 W) into the next.
    const gauss_terms plain =
        gauss_terms::from_system(system, schedule.weights(), schedule.multipliers());
    const Eigen::VectorXd fc = system.mass * (predicted - plain.free_accel);
    schedule.set_multipliers(-plain.jacobian.transpose().colPivHouseholderQr().solve(fc));
  }
  const auto terms_now = [&] {
    return gauss_terms::from_system(system, schedule.weights(), schedule.multipliers());
  };
  gauss_terms terms = terms_now();

  Eigen::VectorXd centre;
  double radius = 0.0;
  if (warm) {
    centre = predicted;
    const double moved = recent_errors_.empty()
                             ? options_.cold_radius
                             : *std::max_element(recent_errors_.begin(), recent_errors_.end());
    radius =
        std::clamp(options_.warm_factor * moved, options_.warm_min_radius, options_.cold_radius);
  } else {
    centre = Eigen::VectorXd::Constant(n, options_.cold_guess);
    radius = options_.radii_per_run.empty() ? options_.cold_radius : options_.radii_per_run[0];
  }
  radius = std::max(radius, radius_floor(centre));

  // Each run searches a box around run_centre, along the principal axes of Z1 when asked, with
  // half widths r * axis_scale.
  Eigen::VectorXd axis_scale = Eigen::VectorXd::Ones(n);
  const auto make_objective = [&](const Eigen::VectorXd& c, double r) {
    Eigen::MatrixXd basis;
    axis_scale.setOnes();
    if (options_.principal_axes) {
      const Eigen::MatrixXd h = terms.mass + 2.0 * terms.jacobian.transpose() *
                                                 terms.weights.asDiagonal() * terms.jacobian;
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(h);
      basis = eig.eigenvectors();
      if (options_.scaled_axes) {
        // Box shaped like a level set of Z1: the stiff axes (penalised constraint directions)
        // get proportionally smaller half widths, so that every axis matters to selection.
        const Eigen::VectorXd lambda = eig.eigenvalues().cwiseMax(1e-300);
        axis_scale = (lambda.minCoeff() * lambda.cwiseInverse()).cwiseSqrt();
      }
    }
    return std::make_unique<gauss_objective>(terms, c, r * axis_scale, basis);
  };
  run_problem problem(options_.record_trace);
  problem.set(make_objective(centre, radius));

  runs_.clear();
  snapshots_.clear();
  const double scale = std::max(1.0, max_abs(centre));
  Eigen::VectorXd last_best = centre;
  long long evaluations_before_run = 0;
  int current_run = 1;
  bool converged = false;

  ga::termination per_run;
  per_run.max_generations = 0;
  per_run.max_evaluations = options_.evaluations_per_run;
  const auto first_run_index =
      static_cast<std::uint64_t>(solves_) * static_cast<std::uint64_t>(options_.max_runs + 2);
  ga::run_settings settings;
  if (options_.record_trace) {
    settings.on_sync = [&](const ga::sync_report& report) {
      const Eigen::VectorXd best = problem.best();
      if (best.size() != n) return;
      const Eigen::VectorXd a = problem.objective().acceleration_of(best);
      snapshots_.push_back({current_run, report.generation,
                            evaluations_before_run + report.evaluations, a, terms.penalised(a)});
    };
  }

  // Range runs (generalized-inverse dissertation (GIGSP), sec. 5.4): each run re-centred on
  // the best so far and shrunk; the previous best (the new centre) joins the initial population
  // so that no run loses it.
  Eigen::VectorXd run_centre = centre;
  double run_radius = radius;
  for (int k = 0; k < options_.max_runs; ++k) {
    current_run = k + 1;
    const Eigen::VectorXd start = problem.objective().search_centre();
    settings.run_index = first_run_index + static_cast<std::uint64_t>(k);
    settings.start_point = (k > 0 || warm) ? &start : nullptr;
    const gauss_objective& objective = problem.objective();
    const ga::run_result r = model_->run(
        problem, ga::search_box::around(start, run_radius * axis_scale), per_run, settings);
    const Eigen::VectorXd best = objective.acceleration_of(r.best_x);

    gauss_run_record rec;
    rec.run = current_run;
    rec.centre = run_centre;
    rec.radii = run_radius * axis_scale;
    rec.acceleration = best;
    rec.z1 = terms.penalised(best);
    rec.z = terms.gauss_function(best);
    const Eigen::VectorXd residual = terms.jacobian * best - terms.rhs;
    rec.max_residual = max_abs(residual);
    rec.change = max_abs(best - last_best);
    rec.evaluations = r.evaluations;
    rec.seconds = r.seconds;
    evaluations_before_run += r.evaluations;
    // Two GA runs must agree: a first run that finds nothing better than its start point
    // (a warm start already close) shows no change without showing convergence.
    const double tol = options_.tolerance * std::max(scale, max_abs(best));
    // Distance of the best from the centre in the searched coordinates (the basis is
    // orthonormal, so this is the same in accelerations).
    const bool near_edge = max_abs((r.best_x - start).cwiseQuotient(run_radius * axis_scale)) > 0.5;
    converged = k > 0 && rec.change <= tol;
    // A warm box drawn from the prediction error holds the answer; one run resolves about
    // warm_resolution of it, so the first run alone suffices when that is within the
    // tolerance and the best is not pressing on a face (which would mean the box was too
    // small). Decided from the GA's result and shared data only, so all ranks agree.
    if (warm && k == 0 && !near_edge && run_radius * options_.warm_resolution <= tol) {
      converged = true;
    }
    last_best = best;
    schedule.after_run(residual);
    runs_.push_back(std::move(rec));
    if (converged || k + 1 == options_.max_runs) break;

    const auto next_k = static_cast<std::size_t>(k + 1);
    double next = options_.shrink * run_radius;
    if (!warm && next_k < options_.radii_per_run.size()) {
      // The schedule's ratio, so that a widened run shrinks from where it is.
      next = run_radius * options_.radii_per_run[next_k] / options_.radii_per_run[next_k - 1];
    }
    // The minimum may lie outside a box whose edge the best reached: widen instead.
    if (near_edge) next = std::min(10.0 * run_radius, options_.cold_radius);
    run_centre = best;
    run_radius = std::max(next, radius_floor(run_centre));
    terms = terms_now();
    problem.set(make_objective(run_centre, run_radius));
  }
  ++solves_;

  acceleration_result out;
  out.runs = static_cast<int>(runs_.size());
  out.evaluations = evaluations_before_run;
  const Eigen::VectorXd a = runs_.back().acceleration;
  // Suspected inconsistent rows: residuals the penalty has not driven down.
  const Eigen::VectorXd residual = terms.jacobian * a - terms.rhs;
  std::vector<int> suspects;
  for (int i = 0; i < m; ++i) {
    if (std::abs(residual(i)) > options_.inconsistency_tolerance * (1.0 + std::abs(terms.rhs(i)))) {
      suspects.push_back(i);
    }
  }
  if (!suspects.empty()) {
    // Confirm: minimise Z1 without multipliers at w and at 10 w around the compromise. For a
    // consistent set the residual at the minimiser falls like 1/w; for an inconsistent one it
    // stays (the least-squares conflict) and Z1 grows with w (eq. 5.6 and the remarks after it).
    double z1_min[2] = {0.0, 0.0};
    double residual_at[2] = {0.0, 0.0};
    const double r = std::max(1e-6, 100.0 * max_abs(residual));
    for (int k = 0; k < 2; ++k) {
      gauss_terms t = gauss_terms::from_system(
          system, options_.penalty.weight * (k == 0 ? 1.0 : 10.0) * Eigen::VectorXd::Ones(m),
          Eigen::VectorXd::Zero(m));
      const gauss_objective check(t, a, Eigen::VectorXd::Constant(n, r),
                                  gauss_objective::principal_axes(t));
      ga::termination lim;
      lim.max_generations = 0;
      lim.max_evaluations = options_.evaluations_per_run;
      ga::run_settings s;
      s.run_index = first_run_index + static_cast<std::uint64_t>(options_.max_runs) +
                    static_cast<std::uint64_t>(k);
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
      s.start_point = &zero;
      const auto res =
          model_->run(check, ga::search_box::around(zero, Eigen::VectorXd::Constant(n, r)), lim, s);
      const Eigen::VectorXd best = check.acceleration_of(res.best_x);
      z1_min[k] = t.penalised(best);
      residual_at[k] = max_abs(t.jacobian * best - t.rhs);
      out.evaluations += res.evaluations;
    }
    // Both must agree: the GA's evidence (the residual does not fall with w) and the sweep that
    // names the rows; an unconverged GA alone (the thesis preset) must not condemn a consistent
    // set.
    const std::vector<int> named = inconsistent_rows(terms.jacobian, terms.rhs);
    if (residual_at[1] > 0.5 * residual_at[0] && !named.empty()) {
      std::vector<std::string> names;
      for (int i : named) {
        names.push_back(static_cast<std::size_t>(i) < system.constraint_names.size()
                            ? std::string(system.constraint_names[static_cast<std::size_t>(i)])
                            : fmt::format("row {}", i));
      }
      out.status = solve_status::inconsistent;
      out.inconsistent = named;
      out.message = fmt::format(
          "inconsistent constraints: {} (residual {:.3g} that no acceleration removes; the "
          "minimum of Z1 grows with the penalty weight: {:.6g} at w = {:.3g}, {:.6g} at w = "
          "{:.3g})",
          fmt::join(names, ", "), max_abs(residual), z1_min[0], options_.penalty.weight, z1_min[1],
          10.0 * options_.penalty.weight);
      reset();
      return out;
    }
  }

  out.status =
      converged || options_.tolerance == 0.0 ? solve_status::ok : solve_status::not_converged;
  if (!converged && options_.tolerance > 0.0) {
    out.message = fmt::format("ga: best moved by {:.3g} in the last of {} runs (tolerance {:.3g})",
                              runs_.back().change, out.runs, options_.tolerance);
  }
  out.acceleration = a;
  out.constraint_force = system.mass * (a - terms.free_accel);
  if (warm) {
    recent_errors_.push_back(max_abs(a - predicted));
    if (static_cast<int>(recent_errors_.size()) > options_.warm_history) {
      recent_errors_.erase(recent_errors_.begin());
    }
  }
  previous_ = a;
  history_.push_back(a);
  const auto keep = static_cast<std::size_t>(options_.warm_cycle) *
                    static_cast<std::size_t>(options_.warm_order + 1);
  if (history_.size() > keep) history_.erase(history_.begin());
  if (!options_.record_trace) runs_.clear();
  return out;
}


}  // namespace kinevo::gauss
