#include "kinevo/ga/termination.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

void termination::validate() const {
  // 0 means "no limit"; a negative limit is a mistake, not another way to say none.
  io::require_integer("max_generations", max_generations, 0);
  io::require_integer("max_evaluations", max_evaluations, 0);
  io::require_integer("stall_generations", stall_generations, 0);
  io::require_real("max_seconds", max_seconds, io::non_negative());  // 0: no limit
  if (std::isnan(target_value)) throw io::option_error("target_value", "must not be NaN");
  io::require_real("stall_tolerance", stall_tolerance, io::non_negative());
  if (max_generations <= 0 && max_evaluations <= 0 && stall_generations <= 0 &&
      max_seconds <= 0.0 && !std::isfinite(target_value)) {
    throw io::option_error(
        "max_generations",
        "and every other limit are unset: no termination limit is set; give a generation or "
        "evaluation limit, a stall limit, a wall-time limit or a finite target value");
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

stop_reason parse_stop_reason(const std::string& name) {
  for (auto r : {stop_reason::generations, stop_reason::evaluations, stop_reason::target,
                 stop_reason::stall, stop_reason::wall_time, stop_reason::interrupted}) {
    if (to_string(r) == name) return r;
  }
  throw io::option_error("stop_reason",
                         "'" + name +
                             "' is unknown; use one of: generations, evaluations, target, "
                             "stall, wall_time, interrupted");
}

}  // namespace kinevo::ga
