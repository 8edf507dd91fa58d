#include "kinevo/synthesis/cams/cam_oscillating_roller.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "kinevo/io/errors.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::synthesis {

namespace {

using vec = Eigen::Vector2d;

// The programme tabulated once: the searches evaluate the pressure angle many times.
struct tabulated {
  std::vector<double> s, ds;
  tabulated(const cam_motion_programme& p, int n) {
    for (int i = 0; i < n; ++i) {
      const auto v = p.at(2.0 * std::numbers::pi * i / n);
      s.push_back(v.s);
      ds.push_back(v.ds);
    }
  }
  double max_abs_alpha(const oscillating_roller_design& d, int sense) const {
    double m = 0.0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double phi = d.c + s[i];
      const double k = 1.0 + sense * ds[i];
      m = std::max(m, std::abs(std::atan2(std::cos(phi) - d.b_ratio * k, std::sin(phi))));
    }
    return m;
  }
};

}  // namespace

follower_point roller_centre(const oscillating_roller_design& d, const programme_value& v) {
  const double b = d.b_ratio, phi = d.c + v.s, c = std::cos(phi), s = std::sin(phi);
  return follower_point{vec(1.0 - b * c, b * s), b * v.ds * vec(s, c),
                        b * v.dds * vec(s, c) + b * v.ds * v.ds * vec(c, -s)};
}

void oscillating_roller_options::validate() const {
  validate_roller_bounds(max_pressure_angle, roller_fraction, samples);
  io::require_option(std::isfinite(max_roller_arm_ratio) && max_roller_arm_ratio > 0.0,
                     "max_roller_arm_ratio", "must be finite and > 0");
  io::require_option(sense == 1 || sense == -1, "sense", "must be counterclockwise or clockwise");
  io::require_option(
      std::isfinite(b_min) && std::isfinite(b_max) && b_min > 0.0 && b_min < b_max && b_max < 1.0,
      "b_ratio", "box must satisfy 0 < min < max < 1 (the arm shorter than a)");
  io::require_option(std::isfinite(c_min) && std::isfinite(c_max) && c_min > 0.0 && c_min < c_max &&
                         c_max < std::numbers::pi,
                     "c", "box must satisfy 0 < min < max < 180 deg");
}

double oscillating_pressure_angle(const programme_value& v, const oscillating_roller_design& d,
                                  int sense) {
  const double phi = d.c + v.s;
  const double k = 1.0 + sense * v.ds;
  return std::atan2(std::cos(phi) - d.b_ratio * k, std::sin(phi));
}

cam_analysis analyse_oscillating_roller(const cam_motion_programme& p,
                                        const oscillating_roller_design& d,
                                        const oscillating_roller_options& o) {
  const auto motion = [d](const programme_value& v) { return roller_centre(d, v); };
  const int sense = o.sense;
  auto a = sample_cam(
      p, motion,
      [d, sense](const programme_value& v) { return oscillating_pressure_angle(v, d, sense); },
      sense, o.samples);
  apply_roller(
      a, std::min(o.roller_fraction * a.min_convex_radius, o.max_roller_arm_ratio * d.b_ratio));
  return a;
}

double oscillating_base_radius(const cam_motion_programme& p, const oscillating_roller_design& d,
                               int samples) {
  double m = std::numeric_limits<double>::infinity();
  for (int i = 0; i < samples; ++i) {
    const double phi = d.c + p.at(2.0 * std::numbers::pi * i / samples).s;
    m = std::min(m, std::sqrt(1.0 + d.b_ratio * d.b_ratio - 2.0 * d.b_ratio * std::cos(phi)));
  }
  return m;
}

oscillating_source_best oscillating_roller_source_best(const cam_motion_programme& p,
                                                       const oscillating_roller_options& o) {
  const tabulated tab(p, o.samples);
  const auto worst = [&](double b) { return tab.max_abs_alpha({b, std::acos(b)}, o.sense); };
  constexpr int scan = 200;
  double best_b = o.b_min, best = worst(o.b_min);
  for (int i = 1; i <= scan; ++i) {
    const double b = o.b_min + (o.b_max - o.b_min) * i / scan;
    if (const double w = worst(b); w < best) best = w, best_b = b;
  }
  const double h = (o.b_max - o.b_min) / scan;
  const double b = golden_section_minimum(worst, std::max(o.b_min, best_b - h),
                                          std::min(o.b_max, best_b + h), 60)
                       .first;
  return {{b, std::acos(b)}, worst(b)};
}

oscillating_roller_optimum optimise_oscillating_roller(const cam_motion_programme& p,
                                                       const oscillating_roller_options& o) {
  constexpr int search_samples = 1440;
  // The search's sampled maximum may sit below the true one by O(h^2): aim a little lower, and
  // the final dense check decides.
  const double bound = o.max_pressure_angle - 0.02 * std::numbers::pi / 180.0;
  const tabulated tab(p, search_samples);
  // The smallest feasible c for this B (the base radius grows with c on (0, pi)), if any. Each
  // sample's alpha falls as c grows (d tan alpha / d phi = (B k cos phi - 1) / sin^2 phi < 0 for
  // B k < 1), so max |alpha| is quasi-convex in c: golden section finds its minimum, and the
  // feasible c form one interval whose left end is found by bisection.
  const auto smallest_c = [&](double b) -> std::optional<double> {
    const auto worst = [&](double c) { return tab.max_abs_alpha({b, c}, o.sense); };
    if (worst(o.c_min) <= bound) return o.c_min;
    const auto [c_best, w_best] = golden_section_minimum(worst, o.c_min, o.c_max, 60);
    if (w_best > bound) return std::nullopt;
    double lo = o.c_min, hi = c_best;
    for (int it = 0; it < 50; ++it) {
      const double m = 0.5 * (lo + hi);
      (worst(m) <= bound ? hi : lo) = m;
    }
    return hi;
  };
  const auto size = [&](double b) {
    const auto c = smallest_c(b);
    return c ? oscillating_base_radius(p, {b, *c}, search_samples)
             : std::numeric_limits<double>::infinity();
  };
  constexpr int scan = 100;
  double best_b = 0.0, best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= scan; ++i) {
    const double b = o.b_min + (o.b_max - o.b_min) * i / scan;
    if (const double r = size(b); r < best) best = r, best_b = b;
  }
  oscillating_roller_optimum r;
  if (!std::isfinite(best)) return r;
  const double h = (o.b_max - o.b_min) / scan;
  double b =
      golden_section_minimum(size, std::max(o.b_min, best_b - h), std::min(o.b_max, best_b + h), 40)
          .first;
  if (!(size(b) <= best)) b = best_b;
  const double c = *smallest_c(b);
  // The search aimed low; the largest |alpha| refined between samples (golden section) lets c come
  // down to the bound itself: bisection over the last half degree.
  const auto exact = [&](double cc) {
    return periodic_maximum(
               [&](double psi) {
                 return std::abs(oscillating_pressure_angle(p.at(psi), {b, cc}, o.sense));
               },
               o.samples)
        .first;
  };
  const double limit = o.max_pressure_angle * (1.0 - 1e-9);
  double lo = std::max(o.c_min, c - 0.5 * std::numbers::pi / 180.0), hi = c;
  if (exact(lo) <= limit) {
    hi = lo;
  } else {
    for (int it = 0; it < 50 && hi - lo > 1e-12; ++it) {
      const double m = 0.5 * (lo + hi);
      (exact(m) <= limit ? hi : lo) = m;
    }
  }
  r.design = {b, hi};
  r.found = exact(hi) <= limit;
  return r;
}

}  // namespace kinevo::synthesis
