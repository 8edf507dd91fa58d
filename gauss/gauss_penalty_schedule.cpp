#include "gauss/gauss_penalty_schedule.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace kinevo::gauss {

penalty_kind parse_penalty_kind(const std::string& name) {
  if (name == "fixed") return penalty_kind::fixed;
  if (name == "increasing") return penalty_kind::increasing;
  if (name == "multipliers") return penalty_kind::multipliers;
  throw std::invalid_argument(
      fmt::format("unknown penalty schedule '{}': use fixed, increasing or multipliers", name));
}

std::string to_string(penalty_kind kind) {
  switch (kind) {
    case penalty_kind::fixed:
      return "fixed";
    case penalty_kind::increasing:
      return "increasing";
    case penalty_kind::multipliers:
      return "multipliers";
  }
  return "?";
}

gauss_penalty_schedule::gauss_penalty_schedule(const gauss_penalty_options& options,
                                               std::span<const std::string> constraint_names,
                                               int constraints)
    : options_(options) {
  auto positive = [](double w) { return std::isfinite(w) && w > 0.0; };
  if (!positive(options.weight)) {
    throw std::invalid_argument(
        fmt::format("penalty weight {} must be positive and finite", options.weight));
  }
  if (options.kind == penalty_kind::increasing &&
      (!(options.growth > 1.0) || !positive(options.max_weight))) {
    throw std::invalid_argument("increasing penalty: growth must be > 1 and max_weight positive");
  }
  initial_weights_ = Eigen::VectorXd::Constant(constraints, options.weight);
  for (const auto& [name, w] : options.named_weights) {
    if (!positive(w)) {
      throw std::invalid_argument(
          fmt::format("penalty weight for '{}' is {}: must be positive and finite", name, w));
    }
    bool found = false;
    for (std::size_t i = 0; i < constraint_names.size() && static_cast<int>(i) < constraints; ++i) {
      if (constraint_names[i] == name) {
        initial_weights_(static_cast<Eigen::Index>(i)) = w;
        found = true;
      }
    }
    if (!found) {
      throw std::invalid_argument(fmt::format(
          "penalty weight given for '{}', which is not a constraint; the constraints are: {}", name,
          fmt::join(constraint_names, ", ")));
    }
  }
  row_scales_ = Eigen::VectorXd::Ones(constraints);
  weights_ = initial_weights_;
  multipliers_ = Eigen::VectorXd::Zero(constraints);
}

void gauss_penalty_schedule::set_row_scales(const Eigen::VectorXd& scales) {
  if (scales.size() != initial_weights_.size() || !scales.allFinite() ||
      !(scales.array() > 0.0).all()) {
    throw std::invalid_argument("penalty schedule: row scales must be positive, one per row");
  }
  row_scales_ = scales;
  weights_ = initial_weights_.cwiseProduct(row_scales_);
}

void gauss_penalty_schedule::after_run(const Eigen::VectorXd& residual) {
  switch (options_.kind) {
    case penalty_kind::fixed:
      break;
    case penalty_kind::increasing:
      weights_ = (weights_ * options_.growth).cwiseMin(options_.max_weight);
      break;
    case penalty_kind::multipliers:
      // First-order multiplier update for the term lambda^T r + r^T W r (gradient 2 W r).
      multipliers_ += 2.0 * weights_.cwiseProduct(residual);
      break;
  }
}

void gauss_penalty_schedule::restart_weights() {
  weights_ = initial_weights_.cwiseProduct(row_scales_);
}

void gauss_penalty_schedule::set_multipliers(const Eigen::VectorXd& lambda) {
  if (options_.kind == penalty_kind::multipliers && lambda.size() == multipliers_.size() &&
      lambda.allFinite()) {
    multipliers_ = lambda;
  }
}

}  // namespace kinevo::gauss
