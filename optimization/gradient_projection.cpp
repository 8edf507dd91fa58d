#include "kinevo/optimization/gradient_projection.hpp"
#include "kinevo/core/householder_q.hpp"

#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "kinevo/core/to_vector.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/numerics/backtracking.hpp"

namespace kinevo::optimization {

std::string to_string(restoration r) {
  return r == restoration::closest_point ? "2" : "3";
}

restoration parse_restoration(const std::string& name) {
  if (name == "2") return restoration::closest_point;
  if (name == "3") return restoration::minimum_norm;
  throw io::option_error(
      "sanlsu_case",
      fmt::format("'{}' is not a SANLSU case (2: closest point, J frozen; 3: minimum-norm Newton)",
                  name));
}

void gradient_projection_options::validate() const {
  io::require_real("sanlsu_tolx", tolerance_x, io::positive());
  io::require_real("sanlsu_tolf", tolerance_f, io::positive());
  io::require_real("sanlsu_damping", damping, {0.0, 1.0, true, true});
  io::require_integer("sanlsu_max_iterations", max_iterations, 1);
  io::require_real("sanlsu_step_limit", step_limit, io::positive());
  io::require_real("sanlsu_line_tolerance", line_tolerance, io::positive());
  io::require_real("sanlsu_rank_tolerance", rank_tolerance, {0.0, 1.0, true, true});
}

namespace {

// How a run ended, as summary.reason words (to_string) and the termination (summary_of).
enum class projection_status {
  converged,           // x stopped moving on f = 0, projected Hessian not negative
  not_a_minimum,       // a stationary point where z decreases along f = 0 to second order
  rank_deficient,      // J lost rank at the start or during the run
  restoration_failed,  // Newton did not bring |f| below tolerance_f
  max_iterations,      // the outer iteration limit was reached
  line_search_failed,  // no alpha decreased z although xi is not negligible
  non_finite           // z, f or a derivative was not finite
};

std::string to_string(projection_status s) {
  switch (s) {
    case projection_status::converged:
      return "converged";
    case projection_status::not_a_minimum:
      return "not_a_minimum";
    case projection_status::rank_deficient:
      return "rank_deficient";
    case projection_status::restoration_failed:
      return "restoration_failed";
    case projection_status::max_iterations:
      return "max_iterations";
    case projection_status::line_search_failed:
      return "line_search_failed";
    case projection_status::non_finite:
      return "non_finite";
  }
  return "unknown";
}

// Not a convergence outcome but a stop: the status and its message.
struct stop {
  projection_status status;
  std::string message;
  std::vector<std::string> constraints;
};

// z, f and the derivatives, counted, with non-finite values turned into a stop.
class counted_problem {
 public:
  counted_problem(const equality_constrained_problem& p, gradient_projection_result& r)
      : p_(p), r_(r) {}
  double z(const Eigen::VectorXd& x) const {
    ++r_.evaluations;
    return p_.objective(x);
  }
  Eigen::VectorXd f(const Eigen::VectorXd& x) const {
    ++r_.evaluations;
    Eigen::VectorXd v = p_.constraints(x);
    if (!v.allFinite()) throw stop{projection_status::non_finite, "f(x) is not finite", {}};
    return v;
  }
  void derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& g, Eigen::MatrixXd& j) const {
    ++r_.gradient_evaluations;
    p_.derivatives(x, g, j);
    if (!g.allFinite() || !j.allFinite()) {
      throw stop{projection_status::non_finite, "grad z or the Jacobian is not finite", {}};
    }
  }
  const equality_constrained_problem& problem() const { return p_; }

 private:
  const equality_constrained_problem& p_;
  gradient_projection_result& r_;
};

// Stage: J must have m independent rows. The constraints involved are those with a component in
// the left null space of J (the left singular vectors of the negligible singular values).
void require_full_rank(const counted_problem& c, const Eigen::MatrixXd& j, double tolerance,
                       const char* where) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(j, Eigen::ComputeFullU);
  const Eigen::VectorXd& s = svd.singularValues();
  const double largest = s.size() > 0 ? s[0] : 0.0;
  std::vector<std::string> names;
  std::vector<bool> involved(static_cast<std::size_t>(j.rows()), false);
  for (Eigen::Index k = 0; k < j.rows(); ++k) {
    if (k < s.size() && s[k] > tolerance * largest && largest > 0.0) continue;
    for (Eigen::Index i = 0; i < j.rows(); ++i) {
      if (std::abs(svd.matrixU()(i, k)) > 1e-6) involved[static_cast<std::size_t>(i)] = true;
    }
  }
  for (std::size_t i = 0; i < involved.size(); ++i) {
    if (involved[i]) names.push_back(c.problem().constraint_name(static_cast<int>(i)));
  }
  if (names.empty()) return;
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "'" : ", '") + n + "'";
  throw stop{projection_status::rank_deficient,
             fmt::format("the constraint Jacobian is rank deficient {} (singular values down to "
                         "{:.3g} of the largest {:.3g}): the gradients of {} are dependent, so "
                         "the projection is undefined; start elsewhere",
                         where, s.size() > 0 ? s[s.size() - 1] : 0.0, largest, list),
             names};
}

// The Householder QR of J^T (n x m, full column rank): the least-squares multipliers of
// J^T lambda = grad z (eqs. 6-7) and the minimum-norm solution of J dx = -f (eq. 37).
struct projector {
  Eigen::HouseholderQR<Eigen::MatrixXd> qr;
  Eigen::Index m;
  explicit projector(const Eigen::MatrixXd& j) : qr(j.transpose()), m(j.rows()) {}
  Eigen::VectorXd multipliers(const Eigen::VectorXd& g) const { return qr.solve(g); }
  // J = R^T Q1^T, so dx = -Q1 R^-T f = -J^T (J J^T)^-1 f.
  Eigen::VectorXd minimum_norm_correction(const Eigen::VectorXd& f) const {
    const auto r = qr.matrixQR().topLeftCorner(m, m).triangularView<Eigen::Upper>();
    Eigen::VectorXd w = Eigen::VectorXd::Zero(qr.rows());
    w.head(m) = -r.transpose().solve(f);
    return householder_q_times(qr, w);
  }
};

// Brent's minimisation of phi on [a, b] (golden section with parabolic steps; R. P. Brent,
// Algorithms for Minimization without Derivatives, 1973, ch. 5), the FMIN of eq. (10).
template <class F>
double brent_minimum(const F& phi, double a, double b, double tolerance) {
  const double golden = 0.5 * (3.0 - std::sqrt(5.0));
  double x = a + golden * (b - a);
  double w = x, v = x;
  double fx = phi(x);
  double fw = fx, fv = fx;
  double d = 0.0, e = 0.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (a + b);
    const double tol1 = tolerance + 1e-10 * std::abs(x);
    const double tol2 = 2.0 * tol1;
    if (std::abs(x - mid) <= tol2 - 0.5 * (b - a)) break;
    bool golden_step = true;
    if (std::abs(e) > tol1) {
      double r = (x - w) * (fx - fv);
      double q = (x - v) * (fx - fw);
      double p = (x - v) * q - (x - w) * r;
      q = 2.0 * (q - r);
      if (q > 0.0) p = -p;
      q = std::abs(q);
      const double e_prev = e;
      e = d;
      if (std::abs(p) < std::abs(0.5 * q * e_prev) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const double u = x + d;
        if (u - a < tol2 || b - u < tol2) d = x < mid ? tol1 : -tol1;
        golden_step = false;
      }
    }
    if (golden_step) {
      e = (x < mid ? b : a) - x;
      d = golden * e;
    }
    const double u = std::abs(d) >= tol1 ? x + d : x + (d > 0.0 ? tol1 : -tol1);
    const double fu = phi(u);
    if (fu <= fx) {
      (u < x ? b : a) = x;
      v = w, fv = fw, w = x, fw = fx, x = u, fx = fu;
    } else {
      (u < x ? a : b) = u;
      if (fu <= fw || w == x) {
        v = w, fv = fw, w = u, fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u, fv = fu;
      }
    }
  }
  return x;
}

// The round-off of a value z of the objective: changes below it are invisible.
double round_off(double z) {
  return 8 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(z));
}

// The end of [0, end] where phi is finite, halving end (a log or sqrt in z ends its domain
// inside [-2.5, 2.5], where Brent's search would otherwise wander among infinite values).
template <class F>
double finite_end(const F& phi, double end) {
  for (int k = 0; k < 60 && !std::isfinite(phi(end)); ++k) end *= 0.5;
  return std::isfinite(phi(end)) ? end : 0.0;
}

// Stage: alpha of x - alpha xi (eq. 10), in closed form for a quadratic z (eqs. 19-21, fixed).
double step_length(const counted_problem& c, const Eigen::VectorXd& x, const Eigen::VectorXd& g,
                   const Eigen::VectorXd& xi, const std::optional<Eigen::MatrixXd>& w,
                   const gradient_projection_options& o) {
  if (xi.squaredNorm() == 0.0) return 0.0;
  if (w) {
    const double curvature = xi.dot(*w * xi);
    if (curvature > 0.0) return std::clamp(xi.dot(g) / curvature, -o.step_limit, o.step_limit);
  }
  const auto phi = [&](double alpha) {
    const double v = c.z(x - alpha * xi);
    return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
  };
  const double lo = finite_end(phi, -o.step_limit);
  const double hi = finite_end(phi, o.step_limit);
  const double alpha = hi > lo ? brent_minimum(phi, lo, hi, o.line_tolerance * (hi - lo)) : 0.0;
  const double z0 = c.z(x);
  if (phi(alpha) < z0 - round_off(z0)) return alpha;
  // Near a stationary point the decrease along xi (of order |xi|^2) falls below the round-off of
  // z and Brent's answer is noise: no step (x has converged). Elsewhere it is a failure.
  if (xi.norm() <= 1e-7 * std::max(1.0, g.norm())) return 0.0;
  throw stop{projection_status::line_search_failed,
             fmt::format("no decrease of z along the projected gradient for alpha in [{:.3g}, "
                         "{:.3g}] although |xi| = {:.3g}",
                         lo, hi, xi.norm()),
             {}};
}

// One damped Newton update: the full step, then step * damping^k until |f| decreases (NRDAMP);
// after 40 lengths that do not, the 40-times damped one.
template <class Residual>
double damped_step(const Residual& residual, double norm_now, double damping) {
  return numerics::backtrack_length(damping, 39,
                                    [&](double step) { return residual(step) < norm_now; });
}

// Stage: restoration of f = 0 from xbar. Case 2 (eqs. 28-35): x = xbar + J0^T gamma with J0
// frozen; case 3 (eqs. 36-37): minimum-norm Newton corrections with J updated.
Eigen::VectorXd restore(const counted_problem& c, const Eigen::VectorXd& xbar,
                        const Eigen::MatrixXd& j0, const gradient_projection_options& o) {
  Eigen::VectorXd g;
  Eigen::MatrixXd j;
  Eigen::VectorXd x = xbar;
  Eigen::VectorXd gamma = Eigen::VectorXd::Zero(j0.rows());
  for (int it = 0; it < o.max_iterations; ++it) {
    const Eigen::VectorXd f = c.f(x);
    if (f.lpNorm<Eigen::Infinity>() < o.tolerance_f) return x;
    c.derivatives(x, g, j);
    const double norm_now = f.norm();
    if (o.method == restoration::minimum_norm) {
      require_full_rank(c, j, o.rank_tolerance, "while restoring f = 0");
      const Eigen::VectorXd dx = projector(j).minimum_norm_correction(f);
      const double s =
          damped_step([&](double t) { return c.f(x + t * dx).norm(); }, norm_now, o.damping);
      x += s * dx;
    } else {
      // d f(xbar + J0^T gamma) / d gamma = J(x) J0^T (m x m).
      const Eigen::MatrixXd m = j * j0.transpose();
      require_full_rank(c, m, o.rank_tolerance, "in the closest-point system J(x) J0^T");
      const Eigen::VectorXd dgamma = -m.colPivHouseholderQr().solve(f);
      const double s = damped_step(
          [&](double t) { return c.f(xbar + j0.transpose() * (gamma + t * dgamma)).norm(); },
          norm_now, o.damping);
      gamma += s * dgamma;
      x = xbar + j0.transpose() * gamma;
    }
  }
  const Eigen::VectorXd f = c.f(x);
  if (f.lpNorm<Eigen::Infinity>() < o.tolerance_f) return x;
  throw stop{projection_status::restoration_failed,
             fmt::format("restoring f = 0 (case {}) left max |f| = {:.3g} after {} Newton steps",
                         to_string(o.method), f.lpNorm<Eigen::Infinity>(), o.max_iterations),
             {}};
}

// The stopping measure: the change of x (the paper's), or when the iteration contracts slowly
// (rate r = change / previous change above 1/2, as on badly scaled problems where every step is
// short) the distance to the limit it implies, change r / (1 - r): short steps alone do not make
// a point stationary.
double distance_left(double change, double previous_change) {
  if (!(previous_change > 0.0)) return change;
  const double rate = std::min(change / previous_change, 0.999);
  return rate > 0.5 ? change * rate / (1.0 - rate) : change;
}

// Stage: x0 - alpha xi (eqs. 2-3, fixed 9) restored onto f = 0. A safeguard the paper does not
// have: when the restored point has a larger z than x0 (the step ignored the curvature of f = 0
// and overshot) or cannot be restored (case 2's line x + J0^T gamma can miss f = 0 when the step
// is long), alpha is halved, up to 30 times. When even the shortest step does not decrease z
// beyond round-off, x0 is stationary to working precision and is kept (the change is then 0).
Eigen::VectorXd projected_step(const counted_problem& c, const Eigen::VectorXd& x0,
                               const Eigen::VectorXd& xi, double alpha, const Eigen::MatrixXd& j0,
                               const gradient_projection_options& o) {
  const double z0 = c.z(x0);
  std::optional<stop> failure;
  for (int halving = 0; halving <= 30; ++halving, alpha *= 0.5) {
    try {
      Eigen::VectorXd x1 = restore(c, x0 - alpha * xi, j0, o);
      if (c.z(x1) <= z0 + round_off(z0)) return x1;
      failure.reset();
    } catch (const stop& s) {
      if (s.status == projection_status::non_finite) throw;
      failure = s;
    }
  }
  if (failure) throw *failure;
  return x0;
}

// Stage: first- and second-order figures at x. The projected Hessian of the Lagrangian
// z - lambda^T f is Z^T H Z, Z an orthonormal basis of the null space of J, H by central
// differences of grad z - J^T lambda (lambda fixed).
void optimality(const counted_problem& c, const Eigen::VectorXd& x, gradient_projection_result& r) {
  Eigen::VectorXd g;
  Eigen::MatrixXd j;
  c.derivatives(x, g, j);
  const projector pr(j);
  r.lambda = pr.multipliers(g);
  r.projected_gradient_norm = (g - j.transpose() * r.lambda).norm();
  r.constraint_residual = c.f(x).lpNorm<Eigen::Infinity>();
  const Eigen::Index n = x.size();
  const Eigen::Index m = j.rows();
  Eigen::MatrixXd h(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const double step = 1e-5 * std::max(1.0, std::abs(x[k]));
    Eigen::VectorXd gp, gm;
    Eigen::MatrixXd jp, jm;
    Eigen::VectorXd xp = x, xm = x;
    xp[k] += step;
    xm[k] -= step;
    c.derivatives(xp, gp, jp);
    c.derivatives(xm, gm, jm);
    h.col(k) = ((gp - jp.transpose() * r.lambda) - (gm - jm.transpose() * r.lambda)) / (2 * step);
  }
  const Eigen::MatrixXd q = householder_q(pr.qr);
  const Eigen::MatrixXd z = q.rightCols(n - m);
  Eigen::MatrixXd reduced = z.transpose() * h * z;
  reduced = 0.5 * (reduced + reduced.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(reduced, Eigen::EigenvaluesOnly);
  r.smallest_curvature = eig.eigenvalues()[0];
  const double scale = std::max(1.0, h.cwiseAbs().maxCoeff());
  if (r.smallest_curvature < -1e-6 * scale) {
    throw stop{projection_status::not_a_minimum,
               fmt::format("x is a stationary point of z on f = 0 but not a minimum: the "
                           "projected Hessian of the Lagrangian has the eigenvalue {:.6g} (z "
                           "decreases along f = 0 from here); start off this point",
                           r.smallest_curvature),
               {}};
  }
}

}  // namespace

namespace {

// The run's status in the one outcome model (gradient_projection_result::summary).
core::summary summary_of(const gradient_projection_result& r, projection_status status) {
  core::termination end = core::termination::failed;
  switch (status) {
    case projection_status::converged:
      end = core::termination::ok;
      break;
    case projection_status::max_iterations:
    case projection_status::restoration_failed:
    case projection_status::line_search_failed:
      end = core::termination::not_converged;
      break;
    case projection_status::not_a_minimum:
    case projection_status::rank_deficient:
    case projection_status::non_finite:
      break;
  }
  core::summary s = core::summary::ended(end, to_string(status), r.message);
  s.iterations = r.iterations;
  s.evaluations = r.evaluations;
  s.seconds = r.seconds;
  return s;
}

}  // namespace

gradient_projection_result minimize_gradient_projection(const equality_constrained_problem& p,
                                                        const Eigen::VectorXd& x0,
                                                        const gradient_projection_options& o) {
  o.validate();
  const int n = p.dimension();
  const int m = p.constraint_count();
  if (m < 1 || m >= n) {
    throw io::option_error(
        "constraints",
        fmt::format("must be 1 <= m < n equalities for gradient projection (got m = {}, n = {})", m,
                    n));
  }
  if (x0.size() != n || !x0.allFinite()) {
    throw io::option_error("start", fmt::format("needs {} finite values (gradient projection)", n));
  }
  gradient_projection_result r;
  r.start = x0;
  r.x = x0;
  r.method = o.method;
  const auto t0 = std::chrono::steady_clock::now();
  const counted_problem c(p, r);
  const std::optional<Eigen::MatrixXd> w = p.constant_hessian();
  projection_status status = projection_status::converged;
  try {
    Eigen::VectorXd g;
    Eigen::MatrixXd j;
    c.derivatives(r.x, g, j);
    require_full_rank(c, j, o.rank_tolerance, "at the start");
    r.x = restore(c, r.x, j, o);
    status = projection_status::max_iterations;
    double last_change = 0.0;
    while (r.iterations < o.max_iterations) {
      ++r.iterations;
      c.derivatives(r.x, g, j);
      require_full_rank(c, j, o.rank_tolerance,
                        fmt::format("at iteration {}", r.iterations).c_str());
      const projector pr(j);
      const Eigen::VectorXd xi = g - j.transpose() * pr.multipliers(g);  // eqs. (5), (8)
      const double alpha = step_length(c, r.x, g, xi, w, o);
      const Eigen::VectorXd x1 = projected_step(c, r.x, xi, alpha, j, o);
      const double change = (x1 - r.x).lpNorm<Eigen::Infinity>();
      r.x = x1;
      const double previous_change = std::exchange(last_change, change);
      if (distance_left(change, previous_change) < o.tolerance_x) {
        status = projection_status::converged;
        break;
      }
    }
    optimality(c, r.x, r);
    if (status == projection_status::max_iterations) {
      r.message = fmt::format("x still moved after {} iterations", o.max_iterations);
    }
  } catch (const stop& s) {
    status = s.status;
    r.message = s.message;
    r.rank_deficient_constraints = s.constraints;
  }
  r.value = c.z(r.x);
  if (status != projection_status::converged && status != projection_status::not_a_minimum) {
    r.constraint_residual = p.constraints(r.x).lpNorm<Eigen::Infinity>();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.summary = summary_of(r, status);
  return r;
}

std::string gradient_projection_result::report(const std::vector<std::string>& variables,
                                               const std::vector<std::string>& constraints) const {
  std::string s = fmt::format(
      "SANLSU gradient projection (case {}): {} after {} iterations, {} evaluations, {} "
      "gradient evaluations, {:.3g} s\n",
      to_string(method), summary.status(), iterations, evaluations, gradient_evaluations, seconds);
  if (!message.empty()) s += "  " + message + "\n";
  s += fmt::format("  z = {:.10g}, max |f| = {:.3g}", value, constraint_residual);
  s += lambda.size() == 0 ? std::string("\n")
                          : fmt::format(", |xi| = {:.3g}, smallest projected curvature {:.6g}\n",
                                        projected_gradient_norm, smallest_curvature);
  if (summary.reason == "rank_deficient") s += "  last point (not an answer):\n";
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    s += fmt::format("  {:<12} {:>16.10g}   (start {:.6g})\n",
                     k < variables.size() ? variables[k] : fmt::format("x{}", i + 1), x[i],
                     start[i]);
  }
  for (Eigen::Index i = 0; i < lambda.size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    s +=
        fmt::format("  lambda {:<10} {:>13.10g}   (J^T lambda = grad z)\n",
                    k < constraints.size() ? constraints[k] : fmt::format("f{}", i + 1), lambda[i]);
  }
  return s;
}

nlohmann::json gradient_projection_result::to_json() const {
  nlohmann::json j;
  j["method"] = "sanlsu";
  j["case"] = static_cast<int>(method);
  j["status"] = summary.status();
  if (!message.empty()) j["message"] = message;
  if (summary.reason == "rank_deficient") {
    // Never an answer: the point where J lost rank is reported as last_x only.
    j["best_x"] = nullptr;
    j["best_value"] = nullptr;
    j["last_x"] = to_vector(x);
  } else {
    j["best_x"] = to_vector(x);
    j["best_value"] = value;
  }
  j["start"] = to_vector(start);
  j["lambda"] = to_vector(lambda);
  j["xi_norm"] = projected_gradient_norm;
  j["constraint_residual"] = constraint_residual;
  j["smallest_curvature"] = smallest_curvature;
  j["iterations"] = iterations;
  j["evaluations"] = evaluations;
  j["gradient_evaluations"] = gradient_evaluations;
  j["seconds"] = seconds;
  if (!rank_deficient_constraints.empty()) {
    j["rank_deficient_constraints"] = rank_deficient_constraints;
  }
  return j;
}

}  // namespace kinevo::optimization
