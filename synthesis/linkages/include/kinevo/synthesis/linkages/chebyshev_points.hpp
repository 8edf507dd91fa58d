// Chebyshev spacing of precision points as a synthesis step of its own: the options a caller
// (or `kinevo synth chebyshev`) gives, their limits, and a result that reports itself.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kinevo::synthesis {

// n = 1e6 points are 8 MB; more is no use for precision points and 1e8 ran out of memory.
inline constexpr int max_chebyshev_points = 1'000'000;

struct chebyshev_options {
  double from = 0.0;
  double to = 0.0;
  int n = 3;
  // Throws io::option_error naming the field: from and to finite with to > from and to - from
  // finite (else the points overflow to inf/NaN), n in [1, max_chebyshev_points].
  void validate() const;
};

struct chebyshev_result {
  std::vector<double> points;
  std::string brief_report() const;  // "n Chebyshev points on [from, to]"
  std::string full_report() const;   // one point per line, %.10g
  nlohmann::json to_json() const;    // {"points": [...]}
};

chebyshev_result chebyshev_points(const chebyshev_options& options);

}  // namespace kinevo::synthesis
