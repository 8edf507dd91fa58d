#include "kinevo/synthesis/linkages/ga_synthesis.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/ga/termination.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/gauss_newton.hpp"

namespace kinevo::synthesis {

void ga_synthesis_options::validate() const {
  ga::require_island_count(islands.islands);  // the one island-count rule (ga/island_model.hpp)
  io::require_integer("islands", islands.islands, 1, max_islands);  // and synthesis' own cap
  io::require_integer("generations", generations, 1, max_generations);
  io::require_integer("range_runs", range_runs, 1, 1000);
  io::require_real("shrink", shrink, {0.0, 1.0, true, true});
  io::require_real("penalty_weight", penalty_weight, io::any_finite());
  io::require_real("weight_growth", weight_growth, {1.0, 1e12});
  ga.validate();
  islands.validate(ga);
}

ga::penalty_options ga_synthesis_options::penalty() const {
  ga::penalty_options p;
  p.kind = weight_growth > 1.0 ? ga::penalty_kind::increasing : ga::penalty_kind::fixed;
  p.weight = penalty_weight;
  p.growth = weight_growth;
  return p;
}

fourbar_penalty_problem::fourbar_penalty_problem(const std::vector<double>& psi,
                                                 const std::vector<double>& phi,
                                                 const crank_constrained_options& options,
                                                 double box)
    : constraints_(crank_constrained_problem(psi, phi, options, true)), box_(box) {
  freudenstein_system(psi, phi, a_, b_);
  if (!options.weights.empty()) {
    for (Eigen::Index i = 0; i < a_.rows(); ++i) {
      const double s = std::sqrt(options.weights[static_cast<std::size_t>(i)]);
      a_.row(i) *= s;
      b_(i) *= s;
    }
  }
  // |e_i| <= |b_i| + sum_j |A_ij| box on the box: an upper bound of z there.
  const Eigen::VectorXd bound = b_.cwiseAbs() + a_.cwiseAbs().rowwise().sum() * box_;
  offset_ = 0.5 * bound.squaredNorm() + 1.0;
}

bool fourbar_penalty_problem::feasible(const Eigen::Vector3d& k) const {
  const Eigen::VectorXd c = constraint_values(constraints_, k);
  return c.size() == 0 || c.minCoeff() > 0.0;
}

double fourbar_penalty_problem::value(const Eigen::Vector3d& k) const {
  const double z = 0.5 * (a_ * k - b_).squaredNorm();
  if (weight_ > 0.0) {
    constexpr double margin = 1e-6;
    double sum = 0.0;
    for (const auto& c : constraints_.constraints) {
      const double v = c(k, nullptr, nullptr);
      if (!(v > margin)) sum += std::isfinite(v) ? (margin - v) * (margin - v) : 1e12;
    }
    return z + weight_ * sum;
  }
  double violation = 0.0;
  for (const auto& c : constraints_.constraints) {
    const double v = c(k, nullptr, nullptr);
    if (!(v > 0.0)) violation += std::isfinite(v) ? 1e-9 - v : 1e6;
  }
  return violation > 0.0 ? offset_ + violation : z;
}

void fourbar_penalty_problem::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                       Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index j = 0; j < x.cols(); ++j) values(j) = value(x.col(j));
}

namespace {

// The GA's range runs, reporting progress ("GA", the fraction of all runs' generations) to the
// context.
ga::range_run_result run_ga(const ga::problem& p, const ga_synthesis_options& o,
                            const core::run_context& context,
                            const std::function<void()>& between_runs = {}) {
  ga::island_model model(o.ga, o.islands);
  ga::termination limits;
  limits.max_generations = o.generations;
  ga::range_run_options ro;
  ro.runs = o.range_runs;
  ro.shrink = o.shrink;
  ro.clip_lower = p.lower_bounds();
  ro.clip_upper = p.upper_bounds();
  ga::run_settings settings;
  int run = 0;
  if (context.on_progress) {
    settings.on_sync = [&](const ga::sync_report& s) {
      context.report(
          {(run + static_cast<double>(s.generation) / static_cast<double>(o.generations)) /
               o.range_runs,
           run, s.generation, s.evaluations, "GA"});
    };
  }
  return ga::run_range_runs(
      model, p, ga::search_box::of(p), limits, ro,
      [&](ga::range_run_step& step) {
        run = step.next_run;
        if (between_runs) between_runs();
        return true;
      },
      settings);
}

}  // namespace

ga_fourbar_result ga_crank_constrained(const std::vector<double>& psi,
                                       const std::vector<double>& phi,
                                       const crank_constrained_options& options,
                                       const ga_synthesis_options& o,
                                       const core::run_context& context) {
  o.validate();
  const auto t0 = std::chrono::steady_clock::now();
  fourbar_penalty_problem p(psi, phi, options);
  p.set_weight(o.penalty_weight);  // <= 0: infeasible points rank behind feasible ones instead
  std::optional<ga::penalty> schedule;
  if (o.penalty_weight > 0.0) schedule.emplace(o.penalty(), std::span<const std::string>{}, 1);
  const auto rr = run_ga(p, o, context, [&] {
    if (!schedule) return;
    schedule->after_run(Eigen::VectorXd::Zero(1));
    p.set_weight(schedule->weights()(0));
  });
  // Each run's best was ranked under its own weight: take the feasible one of least z.
  Eigen::Vector3d k = rr.runs.back().result.best_x;
  double best_z = std::numeric_limits<double>::infinity();
  for (const auto& run : rr.runs) {
    const Eigen::Vector3d x = run.result.best_x;
    if (p.feasible(x) && p.objective(x) < best_z) {
      best_z = p.objective(x);
      k = x;
    }
  }
  ga_fourbar_result r;
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  freudenstein_system(psi, phi, a, b);
  r.fit.k = k;
  r.fit.residual = a * k - b;
  r.fit.residual_norm = r.fit.residual.norm();
  r.feasible = p.feasible(k) && meets_link_types(k, options);
  r.ga_fit = r.fit;
  r.evaluations = rr.evaluations;
  r.ga_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (o.refine && r.feasible) {
    // Stage 2: the interior penalty method (Newton on each stage) from the GA's point.
    try {
      const auto c = crank_constrained_from_starts(psi, phi, options, {k});
      if (c.penalty.objective <= p.objective(k) && meets_link_types(c.fit.k, options)) {
        r.fit = c.fit;
        r.refined = true;
      }
    } catch (const std::runtime_error&) {
      // No feasible refinement: the GA's point stands.
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

rssr_problem::rssr_problem(const std::vector<double>& psi, const std::vector<double>& phi,
                           double alpha4, double box)
    : box_(box) {
  rssr_system(psi, phi, alpha4, a_, b_);
}

void rssr_problem::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                            Eigen::Ref<Eigen::VectorXd> values) const {
  // One matrix product for the whole population.
  const Eigen::MatrixXd e = (a_ * x).colwise() - b_;
  values = 0.5 * e.colwise().squaredNorm().transpose();
}

namespace {

rssr_fit rssr_fit_at(const Eigen::MatrixXd& a, const Eigen::VectorXd& b, const rssr_k& k) {
  rssr_fit f;
  f.k = k;
  f.residual = a * k - b;
  f.residual_norm = f.residual.norm();
  return f;
}

}  // namespace

ga_rssr_result ga_rssr(const std::vector<double>& psi, const std::vector<double>& phi,
                       double alpha4, const ga_synthesis_options& o,
                       const core::run_context& context) {
  o.validate();
  const auto t0 = std::chrono::steady_clock::now();
  const rssr_problem p(psi, phi, alpha4);
  const auto rr = run_ga(p, o, context);
  ga_rssr_result r;
  r.ga_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  rssr_system(psi, phi, alpha4, a, b);
  r.ga_fit = r.fit = rssr_fit_at(a, b, rr.best_x);
  r.evaluations = rr.evaluations;
  if (o.refine) {
    // Stage 2: Householder Gauss-Newton on e(k) = A k - b from the GA's point.
    const numerics::residual_function e = [&](const Eigen::VectorXd& k, Eigen::VectorXd& f,
                                              Eigen::MatrixXd* j) {
      f = a * k - b;
      if (j) *j = a;
    };
    const auto gn = numerics::gauss_newton(e, rr.best_x);
    r.refinement_iterations = gn.iterations;
    if (gn.x.allFinite()) {
      const rssr_fit polished = rssr_fit_at(a, b, gn.x);
      if (polished.residual_norm <= r.ga_fit.residual_norm) {
        r.fit = polished;
        r.refined = true;
      }
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

dyad_problem::dyad_problem(std::vector<pose> poses) : poses_(std::move(poses)) {
  double xmin = poses_[0].x, xmax = xmin, ymin = poses_[0].y, ymax = ymin;
  for (const auto& q : poses_) {
    xmin = std::min(xmin, q.x), xmax = std::max(xmax, q.x);
    ymin = std::min(ymin, q.y), ymax = std::max(ymax, q.y);
  }
  // The same box the random starts of dyad_synthesis use: twice the poses' extent.
  const double cx = 0.5 * (xmin + xmax), cy = 0.5 * (ymin + ymax);
  const double half = std::max({xmax - xmin, ymax - ymin, 1e-3});
  lower_ = Eigen::Vector4d(cx - half, cy - half, cx - half, cy - half);
  upper_ = Eigen::Vector4d(cx + half, cy + half, cx + half, cy + half);
}

void dyad_problem::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                            Eigen::Ref<Eigen::VectorXd> values) const {
  Eigen::VectorXd f;
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    dyad_residuals(poses_, x.col(j), f);
    values(j) = 0.5 * f.squaredNorm();
  }
}

ga_dyad_result ga_dyad(const std::vector<pose>& poses, const ga_synthesis_options& o,
                       const core::run_context& context) {
  o.validate();
  if (poses.size() < 5) throw io::option_error("poses", "must be at least 5 for dyad synthesis");
  const auto t0 = std::chrono::steady_clock::now();
  const dyad_problem p(poses);
  const auto rr = run_ga(p, o, context);
  const numerics::residual_function fun = [&](const Eigen::VectorXd& v, Eigen::VectorXd& f,
                                              Eigen::MatrixXd* j) {
    dyad_residuals(poses, v, f, j);
  };
  const auto gn = numerics::gauss_newton(fun, rr.best_x);
  const Eigen::Vector4d x = gn.x.allFinite() ? Eigen::Vector4d(gn.x) : Eigen::Vector4d(rr.best_x);
  ga_dyad_result r;
  r.solution.a0 = {x(0), x(1)};
  r.solution.b = {x(2), x(3)};
  r.solution.error = dyad_error_measure(poses, x);
  Eigen::VectorXd f;
  dyad_residuals(poses, x, f);
  r.solution.residual_norm = f.norm();
  r.solution.found = 1;
  r.evaluations = rr.evaluations;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace kinevo::synthesis
