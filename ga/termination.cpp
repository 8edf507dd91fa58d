#include "ga/termination.hpp"

#include <cmath>
#include <stdexcept>

namespace kinevo::ga {

void termination::validate() const {
  if (std::isnan(target_value)) throw std::invalid_argument("target value is NaN");
  if (!(stall_tolerance >= 0.0)) throw std::invalid_argument("stall tolerance must be >= 0");
  if (std::isnan(max_seconds)) throw std::invalid_argument("wall-time limit is NaN");
  if (max_generations <= 0 && max_evaluations <= 0 && stall_generations <= 0 &&
      max_seconds <= 0.0 && !std::isfinite(target_value)) {
    throw std::invalid_argument(
        "no termination limit is set: give a generation or evaluation limit, a stall limit, "
        "a wall-time limit or a finite target value");
  }
}

std::string to_string(stop_reason r) {
  switch (r) {
    case stop_reason::generations:
      return "generations";
    case stop_reason::evaluations:
      return "evaluations";
    case stop_reason::target:
      return "target";
    case stop_reason::stall:
      return "stall";
    case stop_reason::wall_time:
      return "wall_time";
    case stop_reason::interrupted:
      return "interrupted";
  }
  return "?";
}

}  // namespace kinevo::ga
