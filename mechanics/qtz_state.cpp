#include "mechanics/qtz_state.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/errors.hpp"
#include "mechanics/qtz_decomposition.hpp"

namespace kinevo::mechanics {

namespace {

solver_options qtz_solver_options(const formulation_options& o) {
  solver_options s;
  s.rank_tolerance = o.rank_tolerance;
  return s;
}

// p = Q2^T q needs Phi(q, t): nonholonomic rows have no position form to recover q from.
const model& require_holonomic(const model& m) {
  if (m.constraints() == m.holonomic_constraints()) return m;
  std::vector<std::string> names;
  for (int i = m.holonomic_constraints(); i < m.constraints(); ++i) {
    names.push_back("'" + m.constraint_names()[static_cast<std::size_t>(i)] + "'");
  }
  throw io::input_error(fmt::format(
      "qtz-state handles holonomic constraints only; {} {} nonholonomic: use --formulation full "
      "or qtz-orthogonal",
      fmt::join(names, ", "), names.size() == 1 ? "is" : "are"));
}

}  // namespace

qtz_state_formulation::qtz_state_formulation(const model& m, const formulation_options& options)
    : reduced_coordinates(require_holonomic(m), options), solver_(qtz_solver_options(options)) {
  report_.name = to_string(formulation_kind::qtz_state);
}

Eigen::MatrixXd qtz_state_formulation::choose_basis(const Eigen::VectorXd& q, double t) {
  const qtz_decomposition d =
      decompose_qtz(model_.position_jacobian(q, t), options_.rank_tolerance);
  // The basis is re-chosen after every step (rebase_wanted), so counting those would only count
  // steps: a re-base is counted when the rank of Phi_q changes (a singular configuration),
  // which changes the number of integrated coordinates.
  if (rank_ >= 0 && d.rank != rank_) ++report_.repartitions;
  rank_ = d.rank;
  return d.q2.transpose();
}

bool qtz_state_formulation::rebase_wanted(const Eigen::VectorXd& /*q*/, double /*t*/) {
  // The paper decomposes Phi_q again after every computational step.
  return true;
}

}  // namespace kinevo::mechanics
