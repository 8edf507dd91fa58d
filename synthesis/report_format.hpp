// Small helpers the synthesis reports share: degrees, and NaN (no assembly) as JSON null.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <vector>

namespace kinevo::synthesis {

inline constexpr double degree = std::numbers::pi / 180.0;

inline std::vector<double> in_degrees(const std::vector<double>& radians) {
  std::vector<double> d;
  d.reserve(radians.size());
  for (const double x : radians) d.push_back(x / degree);
  return d;
}

inline nlohmann::json json_number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

inline nlohmann::json json_numbers(const std::vector<double>& v) {
  nlohmann::json j = nlohmann::json::array();
  for (const double x : v) j.push_back(json_number(x));
  return j;
}

}  // namespace kinevo::synthesis
