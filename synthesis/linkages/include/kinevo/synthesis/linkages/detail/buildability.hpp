// The documented rules by which kinevo calls a synthesised linkage buildable (docs/synthesis.md,
// "Buildable designs"): the transmission angle mu stays within [min, 180 - min] degrees over the
// motion (the usual design rule: below about 30-40 degrees the output link jams and the joint
// forces grow as 1 / sin mu), and the longest link is at most a ratio times the shortest (beyond
// about 10 the linkage is a lever on a pin, sensitive to clearances). Every synthesis report
// states both figures and warns when a rule fails.
#pragma once

#include <fmt/format.h>
#include <cmath>
#include <string>
#include <vector>

namespace kinevo::synthesis {

inline constexpr double buildable_min_transmission_deg = 30.0;
inline constexpr double buildable_max_link_ratio = 10.0;

// Warnings (empty when buildable) for a transmission angle range in degrees (NaN: the linkage
// does not assemble over its motion) and a link ratio; `fix_mu` and `fix_ratio` name the options
// that ask for a buildable design.
inline std::vector<std::string> buildability_warnings(double min_mu_deg, double max_mu_deg,
                                                      double ratio, const std::string& fix_mu,
                                                      const std::string& fix_ratio) {
  std::vector<std::string> w;
  if (!std::isfinite(min_mu_deg) || !std::isfinite(max_mu_deg)) {
    w.push_back("the linkage does not assemble over its whole motion: not buildable as is");
  } else if (std::min(min_mu_deg, 180.0 - max_mu_deg) < buildable_min_transmission_deg) {
    w.push_back(fmt::format(
        "transmission angle {:.1f}-{:.1f} deg leaves the buildable range [{:g}, {:g}] deg: the "
        "linkage jams or needs large joint forces; {}",
        min_mu_deg, max_mu_deg, buildable_min_transmission_deg,
        180.0 - buildable_min_transmission_deg, fix_mu));
  }
  if (!(ratio <= buildable_max_link_ratio)) {
    w.push_back(fmt::format(
        "longest/shortest link ratio {:.3g} exceeds {:g}: a lever on a pin, sensitive to "
        "clearances; {}",
        ratio, buildable_max_link_ratio, fix_ratio));
  }
  return w;
}

}  // namespace kinevo::synthesis
