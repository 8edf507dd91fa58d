#include "kinevo/synthesis/common/least_squares.hpp"
#include "kinevo/core/householder_q.hpp"
#include "kinevo/io/errors.hpp"

#include <Eigen/QR>
#include <cmath>
#include <string>

namespace kinevo::synthesis {

linear_least_squares_result linear_least_squares(const Eigen::MatrixXd& a,
                                                 const Eigen::VectorXd& b) {
  if (a.rows() != b.size())
    throw io::option_error("b", "must have one entry per row of A (linear_least_squares)");
  if (a.rows() < a.cols()) {
    throw io::option_error(
        "a", "has fewer equations than unknowns (linear_least_squares; use minimum_norm_solution)");
  }
  if (!a.allFinite() || !b.allFinite())
    throw io::option_error("a", "and b must be finite (linear_least_squares)");
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
  linear_least_squares_result r;
  r.rank = static_cast<int>(qr.rank());
  if (r.rank < a.cols()) {
    r.summary = core::summary::ended(
        core::termination::failed, "rank_deficient",
        "least squares: the equations are rank deficient (rank " + std::to_string(r.rank) + " of " +
            std::to_string(a.cols()) + "); the data do not determine the unknowns");
    return r;
  }
  r.x = qr.solve(b);
  r.residual = a * r.x - b;
  r.residual_norm = r.residual.norm();
  return r;
}

std::optional<Eigen::VectorXd> minimum_norm_solution(const Eigen::MatrixXd& a,
                                                     const Eigen::VectorXd& b) {
  if (a.rows() != b.size())
    throw io::option_error("b", "must have one entry per row of A (minimum_norm_solution)");
  if (a.rows() > a.cols())
    throw io::option_error("a", "has more equations than unknowns (minimum_norm_solution)");
  // NaN or inf would reach the QR and the rank test below compares against NaN.
  if (!a.allFinite() || !b.allFinite())
    throw io::option_error("a", "and b must be finite (minimum_norm_solution)");
  const Eigen::Index m = a.rows();
  // No equations: the least-norm x is 0 (and the rank test below needs m >= 1).
  if (m == 0) return Eigen::VectorXd(Eigen::VectorXd::Zero(a.cols()));
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a.transpose());
  const auto r = qr.matrixQR().topLeftCorner(m, m).triangularView<Eigen::Upper>();
  const double rmax = qr.matrixQR().diagonal().head(m).cwiseAbs().maxCoeff();
  // Rank deficient: no unique least-norm solution.
  if (!(qr.matrixQR().diagonal().head(m).cwiseAbs().minCoeff() > 1e-13 * rmax)) return std::nullopt;
  Eigen::VectorXd y = Eigen::VectorXd::Zero(a.cols());
  y.head(m) = r.transpose().solve(b);
  return Eigen::VectorXd(householder_q_times(qr, y));
}

gauss_newton_result gauss_newton(const residual_function& fun, const Eigen::VectorXd& x0,
                                 const gauss_newton_options& options) {
  gauss_newton_result r;
  r.x = x0;
  Eigen::VectorXd f, f_trial;
  Eigen::MatrixXd jac;
  fun(r.x, f, &jac);
  r.residual_norm = f.norm();
  for (r.iterations = 0; r.iterations < options.max_iterations; ++r.iterations) {
    if (!std::isfinite(r.residual_norm)) {
      r.message = "residual is not finite";
      return r;
    }
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(jac);
    if (qr.rank() < jac.cols()) {
      r.message = "rank-deficient Jacobian";
      return r;
    }
    Eigen::VectorXd dx = -qr.solve(f);
    int halvings = 0;
    double trial_norm = 0.0;
    while (true) {
      fun(r.x + dx, f_trial, nullptr);
      trial_norm = f_trial.norm();
      if (trial_norm <= r.residual_norm) break;
      if (++halvings > options.max_halvings) break;
      dx *= 0.5;
    }
    const bool small = dx.norm() <= options.tol_x * (1.0 + r.x.norm());
    if (halvings > options.max_halvings) {
      // No descent along the Gauss-Newton direction: at a minimum to working precision, or stuck.
      r.converged = small || dx.norm() <= 1e-8 * (1.0 + r.x.norm());
      if (!r.converged) r.message = "no step lowers the residual";
      return r;
    }
    r.x += dx;
    fun(r.x, f, &jac);
    r.residual_norm = f.norm();
    if (small) {
      ++r.iterations;
      r.converged = true;
      return r;
    }
  }
  r.message = "iteration limit reached";
  return r;
}

}  // namespace kinevo::synthesis
