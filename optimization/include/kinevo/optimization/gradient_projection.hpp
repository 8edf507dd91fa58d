// SANLSU gradient projection: minimise z(x) subject to f(x) = 0, f in R^m, x in R^n, m < n
// (Angeles et al., Diseño cinemático de maquinaria, paper "Análisis cinemático de manipuladores
// con articulaciones redundantes haciendo uso de minimización cuadrática", eqs. (1)-(40)).
//
// One outer iteration at a feasible x0:
//   lambda = least-squares solution of J^T lambda = grad z (eqs. 6-7, Householder QR),
//   xi = grad z - J^T lambda = [1 - J^T (J J^T)^-1 J] grad z (eqs. 5, 8),
//   x1 = x0 - alpha xi (eqs. 2-3; fix to eq. 9: dx = alpha [J^T (J J^T)^-1 J - 1] grad z, the
//   printed J (J J^T)^-1 J has the wrong shape), alpha minimising z(x0 - alpha xi) on
//   [-2.5, 2.5] (eq. 10) by Brent's method, or for a quadratic z with constant Hessian W in
//   closed form alpha = xi^T grad z / xi^T W xi (fix to eqs. 19-21: the printed xi^T W grad z);
// then f(x) = 0 is restored:
//   case 2 (eqs. 28-35): the closest point x1 + J0^T gamma, f(x1 + J0^T gamma) = 0 solved for
//   gamma (m unknowns) by damped Newton with J0 frozen at x0 (fix to eq. 26: dx = J^T mu);
//   case 3 (eqs. 36-37): minimum-norm Newton corrections dx = -J^T (J J^T)^-1 f, J updated.
// Repeat until the change of x is below tolerance. At the answer J^T lambda = grad z (eqs.
// 38-40 with the sign of eq. 6: the Lagrangian is z - lambda^T f).
//
// A rank-deficient J (fewer than m independent constraint gradients, e.g. a fully stretched
// arm) makes lambda and the projector meaningless: the run stops with status rank_deficient and
// names the constraints involved, never returning that point as an answer. A stationary point
// whose projected Hessian of the Lagrangian has a negative eigenvalue (a maximum or a saddle on
// f = 0, e.g. the ends of the ellipse's major axis in the paper's Ejemplo 1) stops with status
// not_a_minimum.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"

namespace kinevo::optimization {

// The problem SANLSU sees: z, f and their first derivatives at a point.
class equality_constrained_problem {
 public:
  virtual ~equality_constrained_problem() = default;
  virtual int dimension() const = 0;         // n
  virtual int constraint_count() const = 0;  // m, 1 <= m < n
  virtual std::string constraint_name(int i) const = 0;
  virtual double objective(const Eigen::VectorXd& x) const = 0;
  virtual Eigen::VectorXd constraints(const Eigen::VectorXd& x) const = 0;
  // grad z (n) and J = df/dx (m x n).
  virtual void derivatives(const Eigen::VectorXd& x, Eigen::VectorXd& gradient,
                           Eigen::MatrixXd& jacobian) const = 0;
  // W when z has a constant Hessian (a quadratic objective): alpha is then in closed form.
  virtual std::optional<Eigen::MatrixXd> constant_hessian() const { return std::nullopt; }
};

// How f(x) = 0 is restored after each projected step.
enum class restoration { closest_point = 2, minimum_norm = 3 };
std::string to_string(restoration r);
restoration parse_restoration(const std::string& name);  // "2" or "3"; throws invalid_argument

// Defaults from the paper's program: TOLX = TOLF = 1e-6, NRDAMP damping 0.5, 200 iterations.
struct gradient_projection_options {
  restoration method = restoration::minimum_norm;  // key sanlsu_case: 2 or 3
  double tolerance_x = 1e-6;  // key sanlsu_tolx: stop when max |x_k+1 - x_k| is below, > 0
  double tolerance_f = 1e-6;  // key sanlsu_tolf: restoration stops when max |f| is below, > 0
  double damping = 0.5;       // key sanlsu_damping: Newton step factor on no progress, (0, 1)
  int max_iterations = 200;   // key sanlsu_max_iterations: outer (and inner) iterations, >= 1
  double step_limit = 2.5;    // alpha searched in [-step_limit, step_limit] (eq. 10), > 0
  // Brent's tolerance on alpha, relative to the searched interval (where z is finite), > 0.
  double line_tolerance = 1e-8;
  // J is rank deficient when its smallest singular value is below rank_tolerance times its
  // largest (and, for a zero J, always); in (0, 1).
  double rank_tolerance = 1e-9;

  // Throws io::option_error naming the key and its allowed range.
  void validate() const;
};

struct gradient_projection_result {
  std::string message;  // why it stopped when not converged (names constraints for rank)
  // How the run ended, with message, iterations, evaluations and seconds; the reason is always
  // set: ok "converged" (x stopped moving on f = 0, projected Hessian not negative);
  // not_converged "max_iterations" (the outer iteration limit), "restoration_failed" (Newton
  // did not bring |f| below tolerance_f) or "line_search_failed" (no alpha decreased z although
  // xi is not negligible); failed "not_a_minimum" (a stationary point where z decreases along
  // f = 0 to second order), "rank_deficient" (J lost rank at the start or during the run) or
  // "non_finite" (z, f or a derivative was not finite).
  core::summary summary;
  Eigen::VectorXd start, x;
  double value = 0.0;  // z(x)
  // First-order optimality at x: lambda with J^T lambda = grad z (least squares), |xi| =
  // |grad z - J^T lambda|, max |f|; the smallest eigenvalue of the projected Hessian of the
  // Lagrangian (finite differences of its gradient; NaN when there is no tangent direction).
  Eigen::VectorXd lambda;
  double projected_gradient_norm = 0.0;
  double constraint_residual = 0.0;
  double smallest_curvature = 0.0;
  std::vector<std::string> rank_deficient_constraints;  // with reason rank_deficient
  int iterations = 0;                                   // outer iterations
  long long evaluations = 0;                            // of z or f
  long long gradient_evaluations = 0;
  double seconds = 0.0;
  restoration method = restoration::minimum_norm;

  bool ok() const { return summary.end == core::termination::ok; }
  std::string report(const std::vector<std::string>& variables,
                     const std::vector<std::string>& constraints) const;
  // Keys: best_x, best_value (null with status rank_deficient, the point then in last_x),
  // lambda, iterations, status (and message, xi_norm,
  // constraint_residual, smallest_curvature, evaluations, gradient_evaluations, seconds, case,
  // start, rank_deficient_constraints).
  nlohmann::json to_json() const;
};

// Runs SANLSU from x0 (x0 need not satisfy f = 0: it is first restored). Throws
// io::option_error for bad options, std::invalid_argument for m >= n, m = 0 or a wrong size.
gradient_projection_result minimize_gradient_projection(
    const equality_constrained_problem& p, const Eigen::VectorXd& x0,
    const gradient_projection_options& options = {});

}  // namespace kinevo::optimization
