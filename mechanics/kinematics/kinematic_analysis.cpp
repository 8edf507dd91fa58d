#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/LU>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/newton_raphson.hpp"

namespace kinevo::mechanics {

namespace {

std::string model_label(const model& m) {
  if (!m.name().empty()) return fmt::format("'{}'", io::excerpt(m.name(), 40));
  return m.source().empty() ? std::string("the model") : m.source().filename().string();
}

// Linear convergence shows as a roughly constant ratio |dq^(i+1)| / |dq^i| in (0, 1) over the
// last iterates (1/2 at a double root, Haug's Table 4.3.2); quadratic convergence as falling
// ratios. Steps at round-off level are left out of the ratios. Returns the mean ratio of the
// last three when linear, NaN otherwise.
double linear_rate(const std::vector<newton_iterate>& iterates) {
  std::vector<double> d;
  for (const auto& it : iterates) d.push_back(it.dq_norm);
  const double scale = 1.0 + max_abs(iterates.back().q);
  while (!d.empty() && d.back() <= 1e-13 * scale) d.pop_back();
  if (d.size() < 4) return std::numeric_limits<double>::quiet_NaN();
  double lo = 1.0, hi = 0.0, sum = 0.0;
  for (std::size_t k = d.size() - 3; k < d.size(); ++k) {
    const double r = d[k] / d[k - 1];
    lo = std::min(lo, r);
    hi = std::max(hi, r);
    sum += r;
  }
  if (lo < 0.05 || hi > 0.95 || hi > 1.5 * lo) return std::numeric_limits<double>::quiet_NaN();
  return sum / 3.0;
}

// The constraint rows of a rank-deficient Phi_q that full pivoting leaves for last (the
// columns of Phi_q^T outside the pivot columns), by name: dependent on the rows before them.
std::string dependent_rows(const Eigen::MatrixXd& jac, double threshold,
                           const std::vector<std::string>& names) {
  Eigen::FullPivLU<Eigen::MatrixXd> lu(jac.transpose());
  lu.setThreshold(threshold);
  std::vector<std::string> rows;
  const auto& order = lu.permutationQ().indices();
  for (Eigen::Index k = lu.rank(); k < order.size() && rows.size() < 10; ++k) {
    rows.push_back(fmt::format("'{}'", io::excerpt(names[static_cast<std::size_t>(order[k])], 40)));
  }
  if (order.size() - lu.rank() > 10) rows.push_back("...");
  return fmt::format("{}", fmt::join(rows, ", "));
}

// Why the iterates did not converge: |Phi| still falling over the last iterates (too few
// iterations) or not (wandering: no root near the estimate, Haug's Table 4.3.3).
std::string non_convergence_reason(const std::vector<newton_iterate>& iterates,
                                   const newton_options& o) {
  const std::size_t k = iterates.size();
  double smallest = iterates.front().phi_norm;
  for (const auto& it : iterates) smallest = std::min(smallest, it.phi_norm);
  const std::size_t from = k > 5 ? k - 5 : 0;
  bool falling = k >= 2;
  for (std::size_t i = from + 1; i < k; ++i) {
    falling = falling && iterates[i].phi_norm < iterates[i - 1].phi_norm;
  }
  const auto n = iterates.front().q.size();
  const auto deficient = std::count_if(iterates.begin(), iterates.end(),
                                       [n](const newton_iterate& it) { return it.rank < n; });
  return fmt::format(
      "Newton-Raphson did not converge in {} iterations (eps_e = {:g}, eps_s = {:g}): max |Phi| "
      "went from {:.6g} to {:.6g} (smallest {:.6g}); {}{}",
      k, o.eps_e, o.eps_s, iterates.front().phi_norm, iterates.back().phi_norm, smallest,
      falling ? "|Phi| is still falling: more iterations or a better estimate may help"
              : "the iterates wander: no solution near the estimate (no position exists, e.g. "
                "past a lock-up, or the estimate is poor)",
      deficient > 0 ? fmt::format("; Phi_q was rank deficient at {} of the iterates", deficient)
                    : "");
}

// The family's options for Haug's stopping rule (sec. 4.5): max |Phi| <= eps_e, max |dq| <= eps_s.
numerics::newton_options family_options(const newton_options& o) {
  numerics::newton_options f;
  f.tol_f = o.eps_e;
  f.tol_x = o.eps_s;
  f.max_iterations = o.max_iterations;
  return f;
}

// The message of a solve that did not converge, from how the family's iteration ended.
std::string failure_message(const numerics::newton_result& r, const position_solution& s,
                            const newton_options& o) {
  if (r.status == numerics::newton_status::non_finite) {
    // Refused by the step function (nothing recorded for that iteration) or a step not finite.
    if (static_cast<int>(s.iterates.size()) == r.iterations && !s.iterates.empty() &&
        !s.iterates.back().dq.allFinite()) {
      return fmt::format("the Newton-Raphson step is NaN or infinite at iteration {}",
                         r.iterations - 1);
    }
    return fmt::format("Phi or Phi_q is NaN or infinite at iteration {} (t = {:.10g})",
                       r.iterations, s.t);
  }
  if (r.status == numerics::newton_status::diverged) {
    const newton_iterate& last = s.iterates.back();
    return fmt::format(
        "Newton-Raphson diverged: the step grew to {:.3g} at iteration {} (max |Phi| {:.3g}); "
        "no solution near the estimate",
        last.dq_norm, r.iterations - 1, last.phi_norm);
  }
  return s.iterates.empty() ? std::string() : non_convergence_reason(s.iterates, o);
}

// Newton-Raphson from q (Haug, sec. 4.5) by the family's undamped driver, recording every
// iterate with the rank of Phi_q for the diagnosis. `lu` is the caller's workspace.
position_solution newton_raphson(const model& m, Eigen::VectorXd q, double t,
                                 const newton_options& o, Eigen::FullPivLU<Eigen::MatrixXd>& lu) {
  position_solution s;
  s.t = t;
  const auto step = [&](const Eigen::VectorXd& x, Eigen::VectorXd& phi, Eigen::VectorXd& dq) {
    phi = m.position_violation(x, t);
    const Eigen::MatrixXd jac = m.position_jacobian(x, t);
    if (!phi.allFinite() || !jac.allFinite()) return false;
    lu.compute(jac);
    dq = lu.solve(-phi);
    return true;
  };
  const auto record = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& phi,
                          const Eigen::VectorXd& dq) {
    newton_iterate it{x, phi, dq, max_abs(phi), max_abs(dq), static_cast<int>(lu.rank())};
    s.iterates.push_back(std::move(it));
  };
  numerics::newton_result r =
      numerics::newton_raphson(step, std::move(q), family_options(o), record);
  s.iterations = static_cast<int>(s.iterates.size());
  if (r.status != numerics::newton_status::converged) {
    s.kind = convergence_kind::none;
    s.non_finite = r.status == numerics::newton_status::non_finite;
    s.message = failure_message(r, s, o);
    return s;
  }
  s.phi_norm = max_abs(m.position_violation(r.x, t));
  s.rate = linear_rate(s.iterates);
  s.kind = std::isnan(s.rate) ? convergence_kind::quadratic : convergence_kind::linear;
  if (s.kind == convergence_kind::linear) {
    s.message = fmt::format(
        "Newton-Raphson converged linearly in {} iterations (the step shrinks by {:.3g} per "
        "iteration): a singular root, where Phi_q is singular",
        s.iterations, s.rate);
  }
  s.q = std::move(r.x);
  return s;
}

}  // namespace

void newton_options::validate() const {
  io::require_real("eps_e", eps_e, io::positive());
  io::require_real("eps_s", eps_s, io::positive());
  io::require_integer("max_iterations", max_iterations, 1, 100000);
  io::require_real("rank_tolerance", rank_tolerance, {0.0, 1.0, true, true});
}

void kinematic_analysis_options::validate() const {
  io::require_real("t_start", t_start, io::any_finite());
  io::require_real("t_end", t_end, io::any_finite());
  if (t_end < t_start) {
    throw io::option_error("t_end",
                           fmt::format("must be >= t_start = {:g} (got {:g})", t_start, t_end));
  }
  io::require_real("dt", dt, io::positive());
  // The grid's step count, bounded so that a typo (dt = 1e-12) is refused rather than run.
  if (grid_steps(t_end - t_start, dt) > max_grid_steps) {
    throw io::option_error(
        "dt", fmt::format("gives more than 10^7 steps from t = {:g} to {:g} (got {:g})", t_start,
                          t_end, dt));
  }
  newton.validate();
}

void check_kinematically_determined(const model& m) {
  const int n = m.coordinates();
  const int mh = m.holonomic_constraints();
  const int mn = m.constraints() - mh;
  if (mn > 0) {
    throw io::input_error(fmt::format(
        "{}: kinematic analysis needs holonomic constraints only; it has {} nonholonomic "
        "constraint{} (first: '{}')",
        model_label(m), mn, mn == 1 ? "" : "s",
        io::excerpt(m.constraint_names()[static_cast<std::size_t>(mh)], 40)));
  }
  if (mh < n) {
    throw io::input_error(fmt::format(
        "{}: not kinematically determined: {} coordinates and {} holonomic constraints (drivers "
        "included) leave {} degree{} of freedom without a driver; add {} driver{} ([[joint]] "
        "type = \"driver\")",
        model_label(m), n, mh, n - mh, n - mh == 1 ? "" : "s", n - mh, n - mh == 1 ? "" : "s"));
  }
  if (mh > n) {
    throw io::input_error(fmt::format(
        "{}: not kinematically determined: {} holonomic constraints (drivers included) for {} "
        "coordinates, {} more than the coordinates: remove redundant constraints or drivers",
        model_label(m), mh, n, mh - n));
  }
}

position_solution solve_position(const model& m, const Eigen::VectorXd& q_start, double t,
                                 const newton_options& options) {
  options.validate();
  check_kinematically_determined(m);
  if (q_start.size() != m.coordinates()) {
    throw io::option_error("q_start", fmt::format("has {} entries, the model {} (solve_position)",
                                                  q_start.size(), m.coordinates()));
  }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(m.coordinates(), m.coordinates());
  lu.setThreshold(options.rank_tolerance);
  return newton_raphson(m, q_start, t, options, lu);
}

namespace {

// The result before the first step: what is analysed, over which grid.
kinematic_analysis_result empty_result(const model& m, const kinematic_analysis_options& options) {
  kinematic_analysis_result r;
  r.coordinate_names = m.coordinate_names();
  r.model_name = m.name();
  r.t_start = options.t_start;
  r.t_end = options.t_end;
  r.dt = options.dt;
  r.newton = options.newton;
  return r;
}

// Why q' and q'' are undetermined at t: Phi_q of rank `rank` < n at the position, the rows
// dependent on the others, and at the first time how many constraints or drivers are short.
std::string rank_deficient_message(const model& m, const Eigen::MatrixXd& jac, long rank, double t,
                                   double rank_tolerance, bool first_time) {
  const long n = m.coordinates();
  return fmt::format(
      "t = {:.10g}: Phi_q has rank {} of {} at the position: q' and q'' are "
      "undetermined (a singular configuration or redundant constraints; "
      "dependent on the others: {}){}",
      t, rank, n, dependent_rows(jac, rank_tolerance, m.constraint_names()),
      first_time ? fmt::format("; at the first time: {} independent "
                               "constraint{} or driver{} short of a "
                               "kinematically determined system",
                               n - rank, n - rank == 1 ? "" : "s", n - rank == 1 ? "" : "s")
                 : std::string());
}

// q' and q'' at the row's position from the factorisation of Phi_q there (Haug, secs.
// 4.1-4.2): Phi_q q' = nu = -Phi_t, Phi_q q'' = gamma (the right-hand side `sys` evaluates).
void solve_rates(const model& m, const Eigen::FullPivLU<Eigen::MatrixXd>& lu, double t,
                 kinematic_step& row, constrained_system& sys) {
  const Eigen::VectorXd phi_t =
      m.velocity_violation(row.q, Eigen::VectorXd::Zero(m.coordinates()), t);
  row.qd = lu.solve(-phi_t);
  m.evaluate(row.q, row.qd, t, sys);
  row.qdd = lu.solve(sys.rhs);
}

}  // namespace

kinematic_analysis_result analyse_kinematics(const model& m,
                                             const kinematic_analysis_options& options,
                                             const core::run_context& context) {
  options.validate();
  check_kinematically_determined(m);
  const auto started = std::chrono::steady_clock::now();
  const int n = m.coordinates();
  kinematic_analysis_result r = empty_result(m, options);

  Eigen::FullPivLU<Eigen::MatrixXd> lu(n, n);
  lu.setThreshold(options.newton.rank_tolerance);
  constrained_system sys;
  Eigen::VectorXd guess = m.initial_positions();
  double first_pivot = 0.0;  // largest LU pivot of Phi_q at the first step
  // Grid t_k = t_start + k dt (not accumulated), the last one exactly t_end.
  const double span = options.t_end - options.t_start;
  const long long intervals = grid_intervals(span, options.dt);
  auto stop = [&](core::termination end, const char* reason, double t, std::string message) {
    r.summary = core::summary::ended(end, reason, message);
    r.t_failed = t;
    r.message = std::move(message);
  };
  auto grid_time = [&](long long k) {
    return k == intervals ? options.t_end : options.t_start + static_cast<double>(k) * options.dt;
  };
  for (long long k = 0; k <= intervals; ++k) {
    const double t = grid_time(k);
    if (context.interrupt_requested()) {
      stop(core::termination::interrupted, "interrupted", t,
           fmt::format("interrupted before t = {:.10g}", t));
      break;
    }
    position_solution s = newton_raphson(m, guess, t, options.newton, lu);
    r.total_iterations += s.iterations;
    r.max_step_iterations = std::max(r.max_step_iterations, s.iterations);
    if (!s.converged()) {
      stop(s.non_finite ? core::termination::failed : core::termination::not_converged,
           s.non_finite ? "non_finite" : "no_position", t,
           fmt::format("no position at t = {:.10g}: {}", t, s.message));
      r.failure = std::move(s);
      break;
    }
    if (s.kind == convergence_kind::linear) {
      stop(core::termination::failed, "singular", t,
           fmt::format("t = {:.10g}: {}; q' and q'' are undetermined there (a lock-up or "
                       "bifurcation point): no motion is analysed beyond it",
                       t, s.message));
      r.failure = std::move(s);
      break;
    }
    kinematic_step row;
    row.t = t;
    row.q = *s.q;
    row.iterations = s.iterations;
    row.phi_norm = s.phi_norm;
    row.kind = s.kind;
    // One factorisation of Phi_q at the position for the velocity and acceleration equations
    // (Haug, secs. 4.1-4.2): Phi_q q' = nu = -Phi_t, Phi_q q'' = gamma.
    const Eigen::MatrixXd jac = m.position_jacobian(row.q, t);
    lu.compute(jac);
    if (lu.rank() < n) {
      stop(core::termination::failed, "singular", t,
           rank_deficient_message(m, jac, lu.rank(), t, options.newton.rank_tolerance,
                                  r.rows.empty()));
      r.failure = std::move(s);
      break;
    }
    // Relative to the largest pivot of this step and of the first one, so that a Phi_q that
    // shrinks as a whole (a single coordinate's, near the slider-crank's lock-up) shows too.
    const Eigen::VectorXd pivots = lu.matrixLU().diagonal().cwiseAbs();
    if (n > 0) {
      if (r.rows.empty()) first_pivot = pivots.maxCoeff();
      row.pivot_ratio = pivots.minCoeff() / std::max(pivots.maxCoeff(), first_pivot);
    }
    solve_rates(m, lu, t, row, sys);
    if (!row.qd.allFinite() || !row.qdd.allFinite()) {
      stop(core::termination::failed, "non_finite", t,
           fmt::format("t = {:.10g}: the velocity or acceleration is NaN or infinite", t));
      r.failure = std::move(s);
      break;
    }
    r.max_phi_norm = std::max(r.max_phi_norm, row.phi_norm);
    if (!(row.pivot_ratio >= r.min_pivot_ratio)) {  // also the first step (NaN)
      r.min_pivot_ratio = row.pivot_ratio;
      r.t_min_pivot_ratio = t;
    }
    r.t_stop = t;
    if (k < intervals) {
      // Taylor prediction of the next position from q, q', q'' (the last step may be short).
      const double h = grid_time(k + 1) - t;
      guess = row.q + h * row.qd + 0.5 * h * h * row.qdd;
    }
    r.rows.push_back(std::move(row));
  }
  r.steps = static_cast<long long>(r.rows.size());
  r.completed = r.summary.end == core::termination::ok;
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.summary.iterations = r.steps;
  r.summary.seconds = r.wall_seconds;
  return r;
}

}  // namespace kinevo::mechanics
