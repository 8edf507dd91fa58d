#include "kinevo/mechanics/dynamics/detail/intermittent_constraints.hpp"

#include <Eigen/QR>
#include <cmath>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

intermittent_set::intermittent_set(const model& m)
    : model_(m),
      rows_(m.intermittent_constraints()),
      row_on_(static_cast<std::size_t>(m.constraints()), 1) {
  for (const auto& r : rows_) {
    active_.push_back(r.initially_active ? 1 : 0);
    row_on_[static_cast<std::size_t>(r.row)] = r.initially_active ? 1 : 0;
  }
  slip_side_.assign(rows_.size(), 0.0);
  last_force_ = Eigen::VectorXd::Zero(size());
  rebuild();
}

const std::string& intermittent_set::name(int k) const {
  return model_.constraint_names()[static_cast<std::size_t>(row(k))];
}

void intermittent_set::set_active(int k, bool on) {
  // The row held against the force lambda: slipping starts with C the sign of -lambda (the
  // friction -F sign(C) dC/dq' then continues the constraint force A^T lambda at its limit).
  const double lambda = last_force_[k];
  slip_side_[static_cast<std::size_t>(k)] =
      on ? 0.0 : (lambda > 0.0 ? -1.0 : (lambda < 0.0 ? 1.0 : 0.0));
  active_[static_cast<std::size_t>(k)] = on ? 1 : 0;
  row_on_[static_cast<std::size_t>(row(k))] = on ? 1 : 0;
  rebuild();
}

void intermittent_set::rebuild() {
  kept_.clear();
  names_.clear();
  pattern_.clear();
  std::vector<int> new_index(row_on_.size(), -1);
  for (std::size_t r = 0; r < row_on_.size(); ++r) {
    if (row_on_[r] == 0) continue;
    new_index[r] = static_cast<int>(kept_.size());
    kept_.push_back(static_cast<int>(r));
    names_.push_back(model_.constraint_names()[r]);
  }
  for (const auto& [r, c] : model_.jacobian_pattern()) {
    const int i = new_index[static_cast<std::size_t>(r)];
    if (i >= 0) pattern_.emplace_back(i, c);
  }
}

void intermittent_set::reduce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                              const constrained_system& full, constrained_system& out) {
  const auto m = static_cast<Eigen::Index>(kept_.size());
  out.mass = full.mass;
  out.mass_is_diagonal = full.mass_is_diagonal;
  out.mass_blocks = full.mass_blocks;
  out.force = full.force;
  out.jacobian.resize(m, full.jacobian.cols());
  out.rhs.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    out.jacobian.row(i) = full.jacobian.row(kept_[static_cast<std::size_t>(i)]);
    out.rhs[i] = full.rhs[kept_[static_cast<std::size_t>(i)]];
  }
  out.constraint_names = names_;
  out.jacobian_pattern = pattern_;
  bool any_friction = false;
  for (int k = 0; k < size(); ++k) {
    any_friction = any_friction || (!active(k) && rows_[static_cast<std::size_t>(k)].has_friction);
  }
  if (!any_friction) return;
  model_.evaluate_intermittent(q, qd, t, Eigen::VectorXd::Zero(size()), values_);
  const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
  for (int k = 0; k < size(); ++k) {
    if (active(k) || !rows_[static_cast<std::size_t>(k)].has_friction) continue;
    const double slip = c[row(k)];
    const double side = slip_side_[static_cast<std::size_t>(k)];
    const double sign = side != 0.0 ? side : (slip > 0.0 ? 1.0 : (slip < 0.0 ? -1.0 : 0.0));
    // Coulomb friction against the slip: the generalized force of F along -sign(C) dC/dq'.
    out.force -= values_.friction[k] * sign * full.jacobian.row(row(k)).transpose();
  }
}

Eigen::VectorXd intermittent_set::conditions(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                             double t, const constrained_system& reduced,
                                             const acceleration_result& a) {
  Eigen::VectorXd force = Eigen::VectorXd::Zero(size());
  bool any_on = false;
  for (int k = 0; k < size(); ++k) any_on = any_on || active(k);
  if (any_on && reduced.constraints() > 0 && a.constraint_force.size() == reduced.coordinates()) {
    // lambda from f_c = A^T lambda (least squares: redundant rows share the force).
    const Eigen::VectorXd lambda =
        Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(reduced.jacobian.transpose())
            .solve(a.constraint_force);
    for (int k = 0; k < size(); ++k) {
      if (!active(k)) continue;
      for (std::size_t i = 0; i < kept_.size(); ++i) {
        if (kept_[i] == row(k)) force[k] = lambda[static_cast<Eigen::Index>(i)];
      }
    }
  }
  model_.evaluate_intermittent(q, qd, t, force, values_);
  last_force_ = force;
  Eigen::VectorXd g(size());
  Eigen::VectorXd c;
  for (int k = 0; k < size(); ++k) {
    const auto& r = rows_[static_cast<std::size_t>(k)];
    const double side = slip_side_[static_cast<std::size_t>(k)];
    if (active(k)) {
      g[k] = values_.off[k];
    } else if (r.slip_condition && side != 0.0) {
      if (c.size() == 0) c = model_.velocity_violation(q, qd, t);
      g[k] = side * c[r.row] - r.on_tolerance;
    } else {
      g[k] = values_.on[k];
    }
  }
  return g;
}

void intermittent_set::start_sides(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                                   const Eigen::VectorXd& acceleration) {
  const constrained_system full = model_.evaluate(q, qd, t);
  const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
  for (int k = 0; k < size(); ++k) {
    const auto& r = rows_[static_cast<std::size_t>(k)];
    if (active(k) || std::abs(c[r.row]) > r.on_tolerance) continue;
    const double rate = full.jacobian.row(r.row).dot(acceleration) - full.rhs[r.row];
    slip_side_[static_cast<std::size_t>(k)] = rate > 0.0 ? 1.0 : (rate < 0.0 ? -1.0 : 0.0);
  }
}

void intermittent_set::note_slip(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) {
  const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
  for (int k = 0; k < size(); ++k) {
    const auto& r = rows_[static_cast<std::size_t>(k)];
    const double slip = c[r.row];
    double& side = slip_side_[static_cast<std::size_t>(k)];
    if (active(k)) {
      side = 0.0;
    } else if (std::abs(slip) > r.on_tolerance) {
      side = slip > 0.0 ? 1.0 : -1.0;
    }  // inside the band: the side it slipped on (or broke away to) stays
  }
}

Eigen::VectorXd intermittent_set::project(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double t) {
  const constrained_system full = model_.evaluate(q, qd, t);
  if (kept_.empty()) return qd;
  mass_factor mf;
  if (!mf.compute(full)) return qd;
  const Eigen::VectorXd c_all = model_.velocity_violation(q, qd, t);
  Eigen::MatrixXd a(static_cast<Eigen::Index>(kept_.size()), full.jacobian.cols());
  Eigen::VectorXd c(a.rows());
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    a.row(i) = full.jacobian.row(kept_[static_cast<std::size_t>(i)]);
    c[i] = c_all[kept_[static_cast<std::size_t>(i)]];
  }
  // In the scaled form A^ = A L^-T (M = L L^T): dq' = -L^-T A^+ C.
  const Eigen::MatrixXd a_hat = mf.right_solve_upper(a);
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a_hat);
  return qd - mf.solve_upper(cod.solve(c));
}

double intermittent_set::velocity_violation(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                            double t) const {
  const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
  double worst = 0.0;
  for (const int r : kept_) worst = std::max(worst, std::abs(c[r]));
  return worst;
}

double intermittent_set::value(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               double t) const {
  return model_.velocity_violation(q, qd, t)[row(k)];
}

}  // namespace kinevo::mechanics
