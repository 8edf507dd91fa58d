#include "mechanics/solver_support.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kinevo::mechanics {

bool mass_factor::compute(const constrained_system& s) {
  diagonal_ = s.mass_is_diagonal;
  if (diagonal_) {
    const Eigen::VectorXd d = s.mass.diagonal();
    if (!(d.array() > 0.0).all()) return false;
    sqrt_diag_ = d.cwiseSqrt();
    inv_diag_ = d.cwiseInverse();
    return true;
  }
  llt_.compute(s.mass);
  return llt_.info() == Eigen::Success;
}

Eigen::VectorXd mass_factor::solve(const Eigen::VectorXd& f) const {
  if (diagonal_) return f.cwiseProduct(inv_diag_);
  return llt_.solve(f);
}

Eigen::VectorXd mass_factor::solve_lower(const Eigen::VectorXd& f) const {
  if (diagonal_) return f.cwiseQuotient(sqrt_diag_);
  return llt_.matrixL().solve(f);
}

Eigen::VectorXd mass_factor::solve_upper(const Eigen::VectorXd& y) const {
  if (diagonal_) return y.cwiseQuotient(sqrt_diag_);
  return llt_.matrixU().solve(y);
}

Eigen::MatrixXd mass_factor::right_solve_upper(const Eigen::MatrixXd& a) const {
  if (diagonal_) return a * sqrt_diag_.cwiseInverse().asDiagonal();
  // A L^-T = (L^-1 A^T)^T
  return llt_.matrixL().solve(a.transpose()).transpose();
}

std::string row_names(const constrained_system& s, const std::vector<int>& rows) {
  std::string out;
  for (int r : rows) {
    if (!out.empty()) out += ", ";
    if (static_cast<std::size_t>(r) < s.constraint_names.size()) {
      out += "'" + s.constraint_names[static_cast<std::size_t>(r)] + "'";
    } else {
      out += fmt::format("row {}", r + 1);
    }
  }
  return out;
}

void set_constraint_force(const constrained_system& s, const Eigen::VectorXd& a_f,
                          acceleration_result& r) {
  if (s.mass_is_diagonal) {
    r.constraint_force = s.mass.diagonal().cwiseProduct(r.acceleration - a_f);
  } else {
    r.constraint_force = s.mass * (r.acceleration - a_f);
  }
}

acceleration_result not_positive_definite(const std::string& solver) {
  acceleration_result r;
  r.status = solve_status::singular;
  r.message = solver + ": the mass matrix is not positive definite at this state";
  return r;
}

gram_schmidt_rows orthonormalize_rows(const Eigen::MatrixXd& a_hat, const Eigen::VectorXd& b,
                                      double rank_tolerance, double consistency_tolerance) {
  const Eigen::Index m = a_hat.rows(), n = a_hat.cols();
  gram_schmidt_rows g;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> q(m, n);
  Eigen::VectorXd beta(m);
  const double b_scale = 1.0 + (b.size() > 0 ? b.cwiseAbs().maxCoeff() : 0.0);
  int r = 0;
  Eigen::RowVectorXd row(n);
  for (Eigen::Index i = 0; i < m; ++i) {
    row = a_hat.row(i);
    double bi = b[i];
    const double norm0 = row.norm();
    // Modified Gram-Schmidt, done twice ("twice is enough") so that the remainder of a
    // dependent row is at round-off level relative to its norm.
    for (int pass = 0; pass < 2; ++pass) {
      for (int j = 0; j < r; ++j) {
        const double c = q.row(j).dot(row);
        row.noalias() -= c * q.row(j);
        bi -= c * beta[j];
      }
    }
    const double nr = row.norm();
    if (norm0 == 0.0 || nr <= rank_tolerance * norm0) {
      if (std::abs(bi) > consistency_tolerance * b_scale) {
        g.inconsistent.push_back(static_cast<int>(i));
      } else {
        g.redundant.push_back(static_cast<int>(i));
      }
      continue;
    }
    q.row(r) = row / nr;
    beta[r] = bi / nr;
    g.kept.push_back(static_cast<int>(i));
    ++r;
  }
  g.q = q.topRows(r);
  g.beta = beta.head(r);
  return g;
}

}  // namespace kinevo::mechanics
