#include "kinevo/mechanics/dynamics/detail/hybrid_formulation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace kinevo::mechanics {

namespace {

constexpr const char* lu_name = "partitioning";
constexpr const char* projection_name = "projection";

}  // namespace

hybrid_formulation::hybrid_formulation(const model& m, const formulation_options& options)
    : model_(m), options_(options), partitioning_(m, options), projection_(m, options) {
  report_.name = to_string(formulation_kind::hybrid);
}

Eigen::VectorXd hybrid_formulation::begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                          double t) {
  // Step 1: LU by default.
  projecting_ = false;
  step_ = 0;
  repartition_steps_.clear();
  energy_ = model_.energy(q, qd, t);
  h_previous_ = 0.0;
  stable_steps_ = 0;
  return partitioning_.begin(q, qd, t);
}

bool hybrid_formulation::expand(const Eigen::VectorXd& y, double t, Eigen::VectorXd& q,
                                Eigen::VectorXd& qd) {
  if (active().expand(y, t, q, qd)) return true;
  message_ = active().message();
  return false;
}

Eigen::VectorXd hybrid_formulation::derivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                               const Eigen::VectorXd& qdd) {
  return active().derivative(q, qd, qdd);
}

void hybrid_formulation::merge_reports() {
  report_.repartitions = partitioning_.report().repartitions + projection_.report().repartitions;
  report_.corrections = partitioning_.report().corrections + projection_.report().corrections;
}

std::string hybrid_formulation::leave_partitioning(double h, double h_previous,
                                                   const std::optional<double>& energy_change,
                                                   double energy) {
  const formulation_options& o = options_;
  if (partitioning_.dependent_rcond() < o.hybrid_singular_rcond) {
    return fmt::format("Phi_u reciprocal condition {:.2e} < {:.0e}",
                       partitioning_.dependent_rcond(), o.hybrid_singular_rcond);
  }
  if (partitioning_.repartitioned()) repartition_steps_.push_back(step_);
  while (!repartition_steps_.empty() && repartition_steps_.front() <= step_ - o.hybrid_window) {
    repartition_steps_.pop_front();
  }
  if (static_cast<int>(repartition_steps_.size()) >= o.hybrid_repartitions) {
    return fmt::format("{} re-partitions within {} steps", repartition_steps_.size(),
                       o.hybrid_window);
  }
  const double energy_limit = o.hybrid_energy_tolerance * std::max(1.0, std::abs(energy));
  if (energy_change && *energy_change > energy_limit) {
    return fmt::format("energy changed by {:.2e} in one step > {:.2e}", *energy_change,
                       energy_limit);
  }
  if (h_previous > 0.0 && h < o.hybrid_step_drop * h_previous) {
    return fmt::format("step size {:.3g} < {:g} times the previous {:.3g}", h, o.hybrid_step_drop,
                       h_previous);
  }
  return {};
}

step_outcome hybrid_formulation::after_step(double t, double h, double h_max, Eigen::VectorXd& y) {
  ++step_;
  const step_outcome outcome = active().after_step(t, h, h_max, y);
  merge_reports();
  if (outcome == step_outcome::failed) {
    message_ = active().message();
    return outcome;
  }
  // The full state at the accepted step.
  Eigen::VectorXd q, qd;
  if (projecting_) {
    const Eigen::Index n = y.size() / 2;
    q = y.head(n);
    qd = y.tail(n);
  } else {
    q = partitioning_.positions();
    qd = partitioning_.velocities();
  }
  const std::optional<double> energy = model_.energy(q, qd, t);
  std::optional<double> energy_change;
  if (energy && energy_) energy_change = std::abs(*energy - *energy_);
  energy_ = energy;
  const double h_previous = std::exchange(h_previous_, h);

  if (!projecting_) {
    const std::string reason =
        leave_partitioning(h, h_previous, energy_change, energy.value_or(0.0));
    if (reason.empty()) return outcome;
    // Steps 6-9: continue with the projection method from the same full state.
    y = projection_.begin(q, qd, t);
    projecting_ = true;
    stable_steps_ = 0;
    repartition_steps_.clear();
    report_.switches.push_back({t, lu_name, projection_name, reason});
    return step_outcome::changed;
  }
  // Steps 10-13: back to LU after hybrid_stable_steps steps at the largest step size. With a
  // fixed step (RK4) every step is at the largest size, so that test alone would switch back
  // hybrid_stable_steps steps after every switch, still next to the singular configuration,
  // where partitioning would switch out again at once (or go wrong); LU must also have a
  // well-conditioned block to return to.
  const double best = partitioning_.best_rcond(q, t);
  if (h >= 0.99 * h_max && best >= options_.hybrid_singular_rcond) {
    ++stable_steps_;
  } else {
    stable_steps_ = 0;
  }
  if (stable_steps_ < options_.hybrid_stable_steps) return outcome;
  y = partitioning_.begin(q, qd, t);
  projecting_ = false;
  stable_steps_ = 0;
  report_.switches.push_back(
      {t, projection_name, lu_name,
       fmt::format("{} steps at the largest step size {:.3g}; best LU block reciprocal "
                   "condition {:.2e} >= {:.0e}",
                   options_.hybrid_stable_steps, h_max, best, options_.hybrid_singular_rcond)});
  return step_outcome::changed;
}

}  // namespace kinevo::mechanics
