#include "kinevo/numerics/least_squares.hpp"
#include "kinevo/core/householder_q.hpp"
#include "kinevo/io/errors.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace kinevo::numerics {

namespace {

// |R_ii| of the Householder factor at or below this times the largest: the step is refused.
constexpr double householder_rank_limit = 1e-13;

}  // namespace

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

bool householder_step(const Eigen::MatrixXd& jacobian, const Eigen::VectorXd& f,
                      Eigen::VectorXd& dx) {
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(jacobian);
  double smallest = std::numeric_limits<double>::infinity(), largest = 0.0;
  for (Eigen::Index i = 0; i < std::min(jacobian.rows(), jacobian.cols()); ++i) {
    smallest = std::min(smallest, std::abs(qr.matrixQR()(i, i)));
    largest = std::max(largest, std::abs(qr.matrixQR()(i, i)));
  }
  if (!(smallest > householder_rank_limit * largest)) return false;
  dx = qr.solve(-f);
  return true;
}

}  // namespace kinevo::numerics
