#include "kinevo/ga/constrained_objective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

namespace {

penalty_options penalty_for(const constraint_options& o) {
  penalty_options p = o.penalty;
  if (p.kind != penalty_kind::increasing) {
    p.kind = o.method == constraint_handling::multipliers ? penalty_kind::multipliers
                                                          : penalty_kind::fixed;
  }
  return p;
}

std::vector<std::string> names_of(const constrained_problem& p) {
  std::vector<std::string> names;
  for (int i = 0; i < p.constraint_count(); ++i) names.push_back(p.constraint_name(i));
  return names;
}

}  // namespace

void constraint_options::validate() const {
  io::require_real("equality_tolerance", equality_tolerance, io::non_negative());
  io::require_real("inequality_tolerance", inequality_tolerance, io::non_negative());
  penalty.validate();
}

constrained_objective::constrained_objective(const constrained_problem& p,
                                             const constraint_options& options)
    : p_(p),
      options_(options),
      penalty_((options.validate(), penalty_for(options)), names_of(p), p.constraint_count()) {
  for (int i = 0; i < p.constraint_count(); ++i) equality_.push_back(p.is_equality(i) ? 1 : 0);
}

void constrained_objective::constraint_values(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                              Eigen::VectorXd& f, Eigen::MatrixXd& c) const {
  f.resize(x.cols());
  c.resize(p_.constraint_count(), x.cols());
  p_.evaluate(x, f, c);
}

void constrained_objective::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                     Eigen::Ref<Eigen::VectorXd> values) const {
  Eigen::VectorXd f;
  Eigen::MatrixXd c;
  constraint_values(x, f, c);
  // Feasibility and epsilon: the value is f alone (the violation goes beside it).
  const Eigen::Index m = reports_violation() ? 0 : c.rows();
  Eigen::VectorXd r(m);
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    // The penalty's r_i: max(0, g_i) for an inequality, h_i for an equality.
    for (Eigen::Index i = 0; i < m; ++i) r[i] = equality_[i] ? c(i, k) : std::max(0.0, c(i, k));
    // A NaN inequality would vanish in max(0, NaN) = 0 and pass as satisfied: report the value
    // as non-finite so that the island refuses it, as evaluate_with_violation does.
    values[k] = c.col(k).allFinite() ? f[k] + (m > 0 ? penalty_.term(r) : 0.0)
                                     : std::numeric_limits<double>::quiet_NaN();
  }
}

void constrained_objective::evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                    Eigen::Ref<Eigen::VectorXd> values,
                                                    Eigen::Ref<Eigen::VectorXd> violations) const {
  if (!reports_violation()) {  // penalty, multipliers: the penalised value, as problem's default
    evaluate(x, values);
    violations.setZero();
    return;
  }
  Eigen::VectorXd f;
  Eigen::MatrixXd c;
  constraint_values(x, f, c);
  for (Eigen::Index k = 0; k < x.cols(); ++k) {
    double v = 0.0;
    for (Eigen::Index i = 0; i < c.rows(); ++i) v += violation(i, c(i, k));
    values[k] = f[k];
    // A NaN constraint must not pass as feasible: the island refuses a non-finite violation.
    violations[k] = c.col(k).allFinite() ? v : std::numeric_limits<double>::quiet_NaN();
  }
}

Eigen::VectorXd constrained_objective::violations(const Eigen::VectorXd& x) const {
  Eigen::VectorXd f;
  Eigen::MatrixXd c;
  constraint_values(x, f, c);
  Eigen::VectorXd v(c.rows());
  for (Eigen::Index i = 0; i < c.rows(); ++i) {
    const double ci = c(i, 0);
    v[i] = std::isnan(ci) ? std::numeric_limits<double>::infinity() : violation(i, ci);
  }
  return v;
}

double constrained_objective::max_violation(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd v = violations(x);
  return v.size() > 0 ? v.maxCoeff() : 0.0;
}

void constrained_objective::after_run(const Eigen::VectorXd& best_x) {
  if (options_.method != constraint_handling::multipliers || p_.constraint_count() == 0) return;
  Eigen::VectorXd f;
  Eigen::MatrixXd c;
  constraint_values(best_x, f, c);
  Eigen::VectorXd r(c.rows());
  for (Eigen::Index i = 0; i < c.rows(); ++i) {
    r[i] = equality_[i] ? c(i, 0) : std::max(0.0, c(i, 0));
  }
  if (r.allFinite()) penalty_.after_run(r);
}

}  // namespace kinevo::ga
