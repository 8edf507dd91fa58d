#include "kinevo/synthesis/linkages/chebyshev_points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "kinevo/io/option_error.hpp"
#include "kinevo/synthesis/linkages/freudenstein.hpp"

namespace kinevo::synthesis {

void chebyshev_options::validate() const {
  io::require_real("from", from, io::any_finite());
  io::require_real("to", to, io::real_range{from, io::any_finite().hi, true, false});
  if (!std::isfinite(to - from)) {
    throw io::option_error(
        "to", fmt::format("must be a finite distance above from (to - from overflows: {} - {})", to,
                          from));
  }
  io::require_integer("n", n, 1, max_chebyshev_points);
}

std::string chebyshev_result::brief_report() const {
  if (points.empty()) return "no Chebyshev points\n";
  return fmt::format("{} Chebyshev points from {:.10g} to {:.10g}\n", points.size(), points.front(),
                     points.back());
}

std::string chebyshev_result::full_report() const {
  std::string s;
  for (const double v : points) fmt::format_to(std::back_inserter(s), "{:.10g}\n", v);
  return s;
}

nlohmann::json chebyshev_result::to_json() const {
  return nlohmann::json{{"points", points}};
}

chebyshev_result chebyshev_points(const chebyshev_options& options) {
  options.validate();
  return {chebyshev_spacing(options.from, options.to, options.n)};
}

}  // namespace kinevo::synthesis
