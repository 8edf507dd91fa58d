#include "kinevo/ga/constraint_handling.hpp"

#include <cmath>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::ga {

namespace {
constexpr constraint_handling all_methods[] = {
    constraint_handling::penalty, constraint_handling::multipliers,
    constraint_handling::feasibility, constraint_handling::epsilon};
}

std::string to_string(constraint_handling c) {
  switch (c) {
    case constraint_handling::penalty:
      return "penalty";
    case constraint_handling::multipliers:
      return "multipliers";
    case constraint_handling::feasibility:
      return "feasibility";
    case constraint_handling::epsilon:
      return "epsilon";
  }
  return "?";
}

constraint_handling parse_constraint_handling(const std::string& name) {
  for (const auto c : all_methods) {
    if (name == to_string(c)) return c;
  }
  throw io::option_error("constraints", "'" + name +
                                            "' is unknown; use one of: penalty, multipliers, "
                                            "feasibility, epsilon");
}

void epsilon_options::validate() const {
  io::require_real("epsilon_quantile", quantile, {0.0, 1.0});
  io::require_real("epsilon_exponent", exponent, io::non_negative());
  io::require_real("epsilon_until", until, {0.0, 1.0, true});
}

double epsilon_level(const epsilon_options& o, double eps0, double progress) {
  if (!(progress < o.until) || !(eps0 > 0.0)) return 0.0;
  return eps0 * std::pow(1.0 - progress / o.until, o.exponent);
}

}  // namespace kinevo::ga
