#include "mechanics/reuse_formulation.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/errors.hpp"
#include "mechanics/full_formulation.hpp"

namespace kinevo::mechanics {

reuse_formulation::reuse_formulation(const model& m, int exact_every,
                                     stabilization_kind stabilization, double projection_tolerance,
                                     int projection_iterations)
    : model_(m),
      exact_every_(exact_every),
      stabilization_(stabilization),
      tolerance_(projection_tolerance),
      iterations_(projection_iterations) {
  report_.name = to_string(formulation_kind::reuse);
  if (m.constraints() > m.holonomic_constraints()) {
    std::vector<std::string> rows;
    for (int i = m.holonomic_constraints(); i < m.constraints(); ++i) {
      rows.push_back("'" + m.constraint_names()[static_cast<std::size_t>(i)] + "'");
    }
    throw io::input_error(fmt::format(
        "--formulation reuse takes holonomic constraints only (generalized-inverse dissertation, "
        "section 4.3.3: reusing the generalized inverse fails with nonholonomic rows); the "
        "model has the nonholonomic {} {}: use --formulation full",
        rows.size() == 1 ? "row" : "rows", fmt::join(rows, ", ")));
  }
}

acceleration_solver& reuse_formulation::solver(acceleration_solver& /*user*/) {
  return solver_;
}

Eigen::VectorXd reuse_formulation::begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                         double /*t*/) {
  steps_ = 0;
  solver_.request_exact();
  return pack_state(q, qd);
}

bool reuse_formulation::expand(const Eigen::VectorXd& y, double /*t*/, Eigen::VectorXd& q,
                               Eigen::VectorXd& qd) {
  const Eigen::Index n = y.size() / 2;
  q = y.head(n);
  qd = y.tail(n);
  return true;
}

Eigen::VectorXd reuse_formulation::derivative(const Eigen::VectorXd& /*q*/,
                                              const Eigen::VectorXd& qd,
                                              const Eigen::VectorXd& qdd) {
  // Called after every solve: the report counts the exact inverses up to the last stage.
  report_.exact_inverses = solver_.exact_inverses();
  return pack_state(qd, qdd);
}

step_outcome reuse_formulation::after_step(double t, double /*h*/, double /*h_max*/,
                                           Eigen::VectorXd& y) {
  ++steps_;
  if (steps_ % exact_every_ == 0) solver_.request_exact();
  report_.exact_inverses = solver_.exact_inverses();
  if (stabilization_ != stabilization_kind::projection) return step_outcome::unchanged;
  const Eigen::Index n = y.size() / 2;
  Eigen::VectorXd q = y.head(n), qd = y.tail(n);
  project_weighted(model_, t, tolerance_, iterations_, q, qd);
  y = pack_state(q, qd);
  ++report_.corrections;
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
