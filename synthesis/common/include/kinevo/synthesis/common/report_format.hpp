// Small helpers the synthesis reports share: degrees, and NaN (no assembly) as JSON null.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <vector>

#include "kinevo/core/numbers.hpp"
#include "kinevo/io/json_number.hpp"

namespace kinevo::synthesis {

inline std::vector<double> in_degrees(const std::vector<double>& radians) {
  std::vector<double> d;
  d.reserve(radians.size());
  for (const double x : radians) d.push_back(x / degree);
  return d;
}

using io::json_number;

inline nlohmann::json json_numbers(const std::vector<double>& v) {
  nlohmann::json j = nlohmann::json::array();
  for (const double x : v) j.push_back(json_number(x));
  return j;
}

}  // namespace kinevo::synthesis
