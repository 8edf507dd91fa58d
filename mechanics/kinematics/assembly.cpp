#include "kinevo/mechanics/kinematics/assembly.hpp"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/armijo_line_search.hpp"
#include "kinevo/numerics/backtracking.hpp"

namespace kinevo::mechanics {

void assembly_options::validate() const {
  io::require_real("penalty_tolerance", penalty_tolerance, io::positive());
  io::require_real("position_tolerance", position_tolerance, io::positive());
  io::require_real("velocity_tolerance", velocity_tolerance, io::positive());
  io::require_real("penalty_start", penalty_start, io::positive());
  io::require_real("penalty_growth", penalty_growth,
                   {1.0, std::numeric_limits<double>::infinity(), true});
  io::require_real("penalty_max", penalty_max,
                   {penalty_start, std::numeric_limits<double>::infinity()});
  io::require_integer("max_quasi_newton_iterations", max_quasi_newton_iterations, 1);
  io::require_integer("max_newton_iterations", max_newton_iterations, 1);
  io::require_real("rank_tolerance", rank_tolerance, {0.0, 1.0, true, true});
  io::require_integer("worst_constraints", worst_constraints, 1);
}

namespace {

// max |v_i| that treats NaN as infinite (a NaN constraint is never "within tolerance").
double violation_of(const Eigen::VectorXd& v) {
  return v.allFinite() ? max_abs(v) : std::numeric_limits<double>::infinity();
}

// The most violated rows, most violated first; rows within `floor` are left out. NaN first.
std::vector<constraint_violation> worst_rows(const Eigen::VectorXd& v,
                                             const std::vector<std::string>& names, int first,
                                             int count, double floor, const char* suffix) {
  std::vector<int> rows(static_cast<std::size_t>(v.size()));
  std::iota(rows.begin(), rows.end(), 0);
  auto size = [&](int r) {
    return std::isnan(v[r]) ? std::numeric_limits<double>::infinity() : std::abs(v[r]);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) { return size(a) > size(b); });
  std::vector<constraint_violation> out;
  for (const int r : rows) {
    if (static_cast<int>(out.size()) >= count || !(size(r) > floor)) break;
    out.push_back({names[static_cast<std::size_t>(first + r)] + suffix, v[r]});
  }
  return out;
}

// Minimum-norm least-squares solution of J x = b (redundant rows and free columns allowed).
struct min_norm_solver {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  min_norm_solver(const Eigen::MatrixXd& j, double rank_tolerance) {
    cod.setThreshold(rank_tolerance);
    cod.compute(j);
  }
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const { return cod.solve(b); }
};

// The penalty function F(q) = (q - q0)^T (q - q0) + r Phi^T Phi (Haug, section 4.3) and its
// gradient 2 (q - q0) + 2 r Phi_q^T Phi.
class penalty_function {
 public:
  penalty_function(const model& m, const Eigen::VectorXd& q0, double t) : m_(m), q0_(q0), t_(t) {}
  double r = 1.0;

  double value(const Eigen::VectorXd& q) const {
    const Eigen::VectorXd phi = m_.position_violation(q, t_);
    const double f = (q - q0_).squaredNorm() + r * phi.squaredNorm();
    return std::isfinite(f) ? f : std::numeric_limits<double>::infinity();
  }
  Eigen::VectorXd gradient(const Eigen::VectorXd& q) const {
    const Eigen::VectorXd phi = m_.position_violation(q, t_);
    return 2.0 * (q - q0_) + 2.0 * r * (m_.position_jacobian(q, t_).transpose() * phi);
  }

 private:
  const model& m_;
  const Eigen::VectorXd& q0_;
  double t_;
};

// One penalty value: DFP quasi-Newton iterations from q (updated in place). The search direction
// is d = -H^(i) g^(i) and the update H += s s^T / s^T y - H y y^T H / y^T H y (Davidon-Fletcher-
// Powell; Haug, section 4.3, with the fix that the direction uses H^(i)). Returns the iterations.
int minimise_dfp(const penalty_function& f, Eigen::VectorXd& q, int max_iterations,
                 double step_tolerance) {
  const auto n = q.size();
  Eigen::MatrixXd h = 0.5 * Eigen::MatrixXd::Identity(n, n);  // exact for the distance term
  Eigen::VectorXd g = f.gradient(q);
  double fq = f.value(q);
  const double g0 = max_abs(g);
  const auto value = [&f](const Eigen::VectorXd& x) { return f.value(x); };
  int it = 0;
  while (it < max_iterations) {
    if (!g.allFinite() || max_abs(g) <= 1e-12 * std::max(1.0, g0)) break;
    // H is symmetric: only its lower triangle is kept up to date (half the update's cost).
    Eigen::VectorXd d = -(h.selfadjointView<Eigen::Lower>() * g);
    double slope = g.dot(d);
    if (!(slope < 0.0)) {
      // H lost positive definiteness to round-off: restart from steepest descent.
      h = 0.5 * Eigen::MatrixXd::Identity(n, n);
      d = -(h.selfadjointView<Eigen::Lower>() * g);
      slope = g.dot(d);
    }
    const numerics::line_search_point p = numerics::armijo_line_search(value, q, d, fq, slope);
    const double alpha = p.alpha, f_new = p.value;
    ++it;
    if (alpha == 0.0) break;
    const Eigen::VectorXd s = alpha * d;
    q += s;
    const Eigen::VectorXd g_new = f.gradient(q);
    const Eigen::VectorXd y = g_new - g;
    const double sy = s.dot(y);
    const Eigen::VectorXd hy = h.selfadjointView<Eigen::Lower>() * y;
    const double yhy = y.dot(hy);
    if (sy > 1e-14 * s.norm() * y.norm() && yhy > 0.0) {
      h.selfadjointView<Eigen::Lower>().rankUpdate(s, 1.0 / sy);
      h.selfadjointView<Eigen::Lower>().rankUpdate(hy, -1.0 / yhy);
    }
    const double decrease = fq - f_new;
    g = g_new;
    fq = f_new;
    if (max_abs(s) <= step_tolerance || decrease <= 1e-15 * std::abs(fq)) break;
  }
  return it;
}

// Entries of v that differ from v0 by round-off only are set back to v0's, so that values the
// assembly did not need to move (a ground body, a coordinate in no constraint) stay bit for bit
// what the file said. Not applied when it would raise the violation `measure` above `limit`.
template <class Measure>
void keep_untouched(Eigen::VectorXd& v, const Eigen::VectorXd& v0, double limit,
                    const Measure& measure) {
  const double scale = std::max({1.0, max_abs(v), max_abs(v0)});
  const double noise = 64.0 * std::numeric_limits<double>::epsilon() * scale;
  Eigen::VectorXd cleaned = v;
  bool any = false;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (cleaned[i] != v0[i] && std::abs(cleaned[i] - v0[i]) <= noise) {
      cleaned[i] = v0[i];
      any = true;
    }
  }
  if (any && measure(cleaned) <= limit) v = cleaned;
}

std::string format_worst(const std::vector<constraint_violation>& worst) {
  std::vector<std::string> parts;
  for (const auto& w : worst) parts.push_back(fmt::format("'{}' ({:.3g})", w.name, w.value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// Stage: the penalty values r = penalty_start, times penalty_growth up to penalty_max, each
// minimised by DFP from the last minimiser, until the positions stop moving within
// penalty_tolerance. Returns max |Phi| at the end.
double penalty_stages(const model& m, const Eigen::VectorXd& q0, double t,
                      const assembly_options& options, assembly_result& res) {
  penalty_function f(m, q0, t);
  double violation = 0.0;
  for (f.r = options.penalty_start;;
       f.r = std::min(f.r * options.penalty_growth, options.penalty_max)) {
    const Eigen::VectorXd before = res.q;
    res.quasi_newton_iterations += minimise_dfp(f, res.q, options.max_quasi_newton_iterations,
                                                1e-3 * options.penalty_tolerance);
    ++res.penalty_stages;
    res.final_penalty = f.r;
    violation = violation_of(m.position_violation(res.q, t));
    const double moved = max_abs(res.q - before);
    if (!std::isfinite(violation)) break;
    if (violation <= options.penalty_tolerance && moved <= options.penalty_tolerance) break;
    if (f.r >= options.penalty_max) break;
  }
  return violation;
}

// Stage: Gauss-Newton corrections to round-off. The merit is |Phi|_2, which Gauss-Newton descends
// (max |Phi_i| may rise on a full step far from the solution of a long, weakly conditioned
// chain); a correction that does not reduce it is halved.
// Updates res.q, res.newton_iterations and violation (max |Phi|); returns the rank of the last
// Jacobian.
int gauss_newton_corrections(const model& m, double t, const assembly_options& options,
                             assembly_result& res, double& violation) {
  int rank = 0;
  auto merit_of = [](const Eigen::VectorXd& p) {
    return p.allFinite() ? p.norm() : std::numeric_limits<double>::infinity();
  };
  Eigen::VectorXd phi = m.position_violation(res.q, t);
  double merit = merit_of(phi);
  int stalled = 0;
  bool polished = false;
  while (res.newton_iterations < options.max_newton_iterations) {
    const min_norm_solver solver(m.position_jacobian(res.q, t), options.rank_tolerance);
    rank = static_cast<int>(solver.cod.rank());
    if (violation <= options.position_tolerance && polished) break;
    const Eigen::VectorXd dq = -solver.solve(phi);
    ++res.newton_iterations;
    Eigen::VectorXd step = dq, q_try, phi_try;
    numerics::backtrack(step, 0.5, 30, [&](const Eigen::VectorXd& s) {
      q_try = res.q + s;
      phi_try = m.position_violation(q_try, t);
      return merit_of(phi_try) < merit;
    });
    const double merit_try = merit_of(phi_try);
    if (!(merit_try < merit)) break;  // no correction reduces |Phi|: a least-squares point
    stalled = merit_try > 0.99 * merit ? stalled + 1 : 0;
    // One correction past the tolerance takes |Phi| to round-off (quadratic convergence).
    polished = violation <= options.position_tolerance;
    res.q = q_try;
    phi = phi_try;
    merit = merit_try;
    violation = violation_of(phi);
    if (stalled >= 3 || merit == 0.0) break;
  }
  return rank;
}

// Stage: the velocities of assembled positions res.q (max |Phi| = violation); sets res.qd,
// the velocity figures and res.converged, or the message when the velocity equations cannot be
// met.
void assemble_velocities(const model& m, const Eigen::VectorXd& qd0, double t,
                         const assembly_options& options, double violation, assembly_result& res) {
  const int n = m.coordinates();
  const auto& names = m.constraint_names();
  // Velocities: minimum-norm change of q0' onto A q' + c = 0 (A = Phi_q and A_n, c = Phi_t
  // and a_t), the velocity equation of Haug, eq. 3.6.3.
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  const Eigen::VectorXd c = m.velocity_violation(res.q, zero, t);
  res.qd = qd0;
  if (m.constraints() > 0) {
    const Eigen::MatrixXd a = m.evaluate(res.q, zero, t).jacobian;
    const min_norm_solver solver(a, options.rank_tolerance);
    res.qd = qd0 - solver.solve(a * qd0 + c);
    // A second pass removes what round-off left of an ill-conditioned first one.
    res.qd -= solver.solve(a * res.qd + c);
    keep_untouched(res.qd, qd0, options.velocity_tolerance * std::max(1.0, max_abs(res.qd)),
                   [&](const Eigen::VectorXd& qd) {
                     return violation_of(m.velocity_violation(res.q, qd, t));
                   });
  }
  const Eigen::VectorXd vel = m.velocity_violation(res.q, res.qd, t);
  res.velocity_violation_after = violation_of(vel);
  res.max_velocity_change = violation_of(res.qd - qd0);
  const double vel_tolerance = options.velocity_tolerance * std::max(1.0, max_abs(res.qd));
  if (!(res.velocity_violation_after <= vel_tolerance)) {
    res.worst_after =
        worst_rows(vel, names, 0, options.worst_constraints, vel_tolerance, " (velocity)");
    res.message = fmt::format(
        "assembly failed: the positions are assembled (max |Phi| = {:.3g}) but the velocity "
        "equations cannot be met (max violation {:.3g} > {:g}): the drivers or velocity "
        "constraints may be inconsistent; worst constraints: {}",
        violation, res.velocity_violation_after, vel_tolerance, format_worst(res.worst_after));
    return;
  }
  res.converged = true;
}

}  // namespace

assembly_result assemble(const model& m, double t, const assembly_options& options) {
  return assemble(m, m.initial_positions(), m.initial_velocities(), t, options);
}

assembly_result assemble(const model& m, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                         double t, const assembly_options& options) {
  options.validate();
  const int n = m.coordinates();
  if (q0.size() != n || qd0.size() != n) {
    throw io::option_error(
        "q0", fmt::format("and qd0 must have {2} entries each (got {0} and {1}; assemble)",
                          q0.size(), qd0.size(), n));
  }
  const int h = m.holonomic_constraints();
  const auto& names = m.constraint_names();
  assembly_result res;
  res.t = t;
  res.coordinate_names = m.coordinate_names();
  res.q = q0;

  // Positions.
  const Eigen::VectorXd phi0 = m.position_violation(q0, t);
  res.violation_before = violation_of(phi0);
  res.velocity_violation_before = violation_of(m.velocity_violation(q0, qd0, t));
  res.worst_before = worst_rows(phi0, names, 0, options.worst_constraints, 0.0, "");
  double violation = res.violation_before;
  if (!q0.allFinite()) violation = std::numeric_limits<double>::infinity();
  if (h > 0 && std::isfinite(violation) && violation > options.penalty_tolerance) {
    violation = penalty_stages(m, q0, t, options, res);
  }
  int rank = 0;
  if (h > 0 && std::isfinite(violation))
    rank = gauss_newton_corrections(m, t, options, res, violation);
  if (h == 0) violation = 0.0;
  if (violation <= options.position_tolerance) {
    keep_untouched(res.q, q0, options.position_tolerance, [&](const Eigen::VectorXd& q) {
      return violation_of(m.position_violation(q, t));
    });
    violation = violation_of(m.position_violation(res.q, t));
  }
  res.rank = rank;
  res.violation_after = violation;
  res.max_position_change = violation_of(res.q - q0);
  const Eigen::VectorXd phi_after = m.position_violation(res.q, t);
  if (!(violation <= options.position_tolerance)) {
    res.qd = qd0;
    res.velocity_violation_after = violation_of(m.velocity_violation(res.q, qd0, t));
    res.worst_after =
        worst_rows(phi_after, names, 0, options.worst_constraints, options.position_tolerance, "");
    res.message = fmt::format(
        "assembly failed: max |Phi| = {:.3g} > {:g} after {} penalty values (r up to {:g}), {} "
        "quasi-Newton iterations and {} Gauss-Newton corrections; the design may be infeasible "
        "or a better estimate is needed; worst constraints: {}",
        violation, options.position_tolerance, res.penalty_stages, res.final_penalty,
        res.quasi_newton_iterations, res.newton_iterations, format_worst(res.worst_after));
    return res;
  }

  assemble_velocities(m, qd0, t, options, violation, res);
  return res;
}

model assembled_model(const model& m, const assembly_result& result) {
  if (!result.converged) {
    // A caller's defect (assembling with a failed result), named as the argument.
    throw io::option_error("result", "did not converge (assembled_model): " + result.message);
  }
  model out = m;
  out.set_initial_state(result.q, result.qd);
  return out;
}

core::summary assembly_result::summary() const {
  if (converged) {
    core::summary s;
    s.iterations = quasi_newton_iterations + newton_iterations;
    return s;
  }
  return core::summary::ended(core::termination::failed, "not_assembled", message);
}

std::string assembly_result::brief_report() const {
  if (!converged) return message;
  return fmt::format(
      "assembled at t = {:g}: max |Phi| {:.3g} -> {:.3g}, max velocity violation {:.3g} -> "
      "{:.3g}; {} penalty values (r up to {:g}), {} quasi-Newton iterations, {} Gauss-Newton "
      "corrections; rank of Phi_q {}",
      t, violation_before, violation_after, velocity_violation_before, velocity_violation_after,
      penalty_stages, final_penalty, quasi_newton_iterations, newton_iterations, rank);
}

std::string assembly_result::full_report() const {
  std::string s = brief_report() + "\n";
  const auto& worst = converged ? worst_before : worst_after;
  if (!worst.empty()) {
    s += converged ? "  most violated constraints of the estimate:\n"
                   : "  most violated constraints:\n";
    for (const auto& w : worst) s += fmt::format("    {:<20} {:.6g}\n", w.name, w.value);
  }
  if (converged) {
    s += fmt::format("  max position change {:.6g}, max velocity change {:.6g}\n",
                     max_position_change, max_velocity_change);
  }
  return s;
}

nlohmann::json assembly_result::to_json() const {
  auto finite_or_null = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  auto rows = [](const std::vector<constraint_violation>& w) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : w) {
      a.push_back({{"name", r.name},
                   {"violation",
                    std::isfinite(r.value) ? nlohmann::json(r.value) : nlohmann::json(nullptr)}});
    }
    return a;
  };
  nlohmann::json j;
  j["converged"] = converged;
  j["message"] = message;
  j["t"] = t;
  j["violation_before"] = finite_or_null(violation_before);
  j["violation_after"] = finite_or_null(violation_after);
  j["velocity_violation_before"] = finite_or_null(velocity_violation_before);
  j["velocity_violation_after"] = finite_or_null(velocity_violation_after);
  j["max_position_change"] = finite_or_null(max_position_change);
  j["max_velocity_change"] = finite_or_null(max_velocity_change);
  j["penalty_stages"] = penalty_stages;
  j["final_penalty"] = final_penalty;
  j["quasi_newton_iterations"] = quasi_newton_iterations;
  j["newton_iterations"] = newton_iterations;
  j["rank"] = rank;
  j["worst_before"] = rows(worst_before);
  j["worst"] = rows(worst_after);
  nlohmann::json q_json = nlohmann::json::object(), qd_json = nlohmann::json::object();
  for (std::size_t i = 0; i < coordinate_names.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    if (k < q.size()) q_json[coordinate_names[i]] = finite_or_null(q[k]);
    if (k < qd.size()) qd_json[coordinate_names[i]] = finite_or_null(qd[k]);
  }
  j["positions"] = q_json;
  j["velocities"] = qd_json;
  return j;
}

}  // namespace kinevo::mechanics
