// A double as a JSON value: the number when it is finite, null otherwise. JSON has no NaN or
// infinity, and a report must still parse when a value is undefined (a dead point, a failed
// solve). Shared by every module that writes JSON reports.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>

namespace kinevo::io {

inline nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

}  // namespace kinevo::io
