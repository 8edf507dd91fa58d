#include "kinevo/ga/penalty.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

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

penalty_kind parse_penalty_kind(const std::string& name) {
  for (auto k : {penalty_kind::fixed, penalty_kind::increasing, penalty_kind::multipliers}) {
    if (to_string(k) == name) return k;
  }
  throw io::option_error(
      "penalty", fmt::format("'{}' is unknown: use fixed, increasing or multipliers", name));
}

void penalty_options::validate() const {
  io::require_real("penalty.weight", weight, io::positive());
  for (const auto& [name, w] : named_weights) {
    io::require_real(fmt::format("penalty.named_weights[{}]", name), w, io::positive());
  }
  if (kind == penalty_kind::increasing) {
    io::require_real("penalty.growth", growth,
                     {1.0, std::numeric_limits<double>::infinity(), true});
    if (!(max_weight > 0.0)) {
      throw io::option_error("penalty.max_weight",
                             fmt::format("must be > 0 (infinite: no cap) (got {})", max_weight));
    }
  }
}

penalty::penalty(const penalty_options& options, std::span<const std::string> constraint_names,
                 int constraints)
    : options_(options) {
  options.validate();
  initial_weights_ = Eigen::VectorXd::Constant(constraints, options.weight);
  for (const auto& [name, w] : options.named_weights) {
    bool found = false;
    for (std::size_t i = 0; i < constraint_names.size() && static_cast<int>(i) < constraints; ++i) {
      if (constraint_names[i] == name) {
        initial_weights_(static_cast<Eigen::Index>(i)) = w;
        found = true;
      }
    }
    if (!found) {
      throw io::option_error(
          "penalty.weights",
          fmt::format("names '{}', which is not a constraint; the constraints are: {}", name,
                      fmt::join(constraint_names, ", ")));
    }
  }
  scales_ = Eigen::VectorXd::Ones(constraints);
  weights_ = initial_weights_;
  multipliers_ = Eigen::VectorXd::Zero(constraints);
}

double penalty::term(const Eigen::Ref<const Eigen::VectorXd>& violations) const {
  return multipliers_.dot(violations) + violations.dot(weights_.cwiseProduct(violations));
}

void penalty::set_weight_scales(const Eigen::VectorXd& scales) {
  if (scales.size() != initial_weights_.size() || !scales.allFinite() ||
      !(scales.array() > 0.0).all()) {
    throw io::option_error("scales", "must be positive, one per constraint");
  }
  scales_ = scales;
  weights_ = initial_weights_.cwiseProduct(scales_);
}

void penalty::after_run(const Eigen::VectorXd& violations) {
  switch (options_.kind) {
    case penalty_kind::fixed:
      break;
    case penalty_kind::increasing:
      weights_ = (weights_ * options_.growth).cwiseMin(options_.max_weight);
      break;
    case penalty_kind::multipliers:
      // First-order multiplier update for the term lambda^T r + r^T W r (gradient 2 W r).
      multipliers_ += 2.0 * weights_.cwiseProduct(violations);
      break;
  }
}

void penalty::restart_weights() {
  weights_ = initial_weights_.cwiseProduct(scales_);
}

void penalty::set_multipliers(const Eigen::VectorXd& lambda) {
  if (options_.kind == penalty_kind::multipliers && lambda.size() == multipliers_.size() &&
      lambda.allFinite()) {
    multipliers_ = lambda;
  }
}

}  // namespace kinevo::ga
