#include "kinevo/synthesis/cams/cam_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

#include "kinevo/io/errors.hpp"

namespace kinevo::synthesis {

double cam_analysis::max_abs_pressure_angle() const {
  return std::max(std::abs(max_pressure_angle), std::abs(min_pressure_angle));
}

cam_analysis sample_cam(const cam_motion_programme& programme, const follower_motion& motion,
                        const pressure_angle_law& pressure, int sense, int n) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  cam_analysis a;
  a.samples.resize(static_cast<std::size_t>(n));
  a.max_pressure_angle = -inf;
  a.min_pressure_angle = inf;
  a.min_convex_radius = inf;
  a.min_concave_radius = inf;
  for (int i = 0; i < n; ++i) {
    auto& s = a.samples[static_cast<std::size_t>(i)];
    s.psi = 2.0 * std::numbers::pi * i / n;
    s.sigma = programme.at(s.psi);
    s.pressure_angle = pressure(s.sigma);
    const auto c = cam_curve(motion(s.sigma), s.psi, sense);
    s.radius = c.radius;
    s.pitch = s.profile = c.x;
    s.outward = c.outward;
    if (s.pressure_angle > a.max_pressure_angle) {
      a.max_pressure_angle = s.pressure_angle, a.psi_at_max = s.psi;
    }
    if (s.pressure_angle < a.min_pressure_angle) {
      a.min_pressure_angle = s.pressure_angle, a.psi_at_min = s.psi;
    }
    if (s.radius > 0.0 && s.radius < a.min_convex_radius) {
      a.min_convex_radius = s.radius, a.psi_at_min_radius = s.psi;
    }
    if (s.radius < 0.0) a.min_concave_radius = std::min(a.min_concave_radius, -s.radius);
  }
  // The extremes between the samples.
  const double h = 2.0 * std::numbers::pi / n;
  const auto angle = [&](double psi) { return pressure(programme.at(psi)); };
  std::tie(a.max_pressure_angle, a.psi_at_max) =
      refine_maximum(angle, a.psi_at_max, h, a.max_pressure_angle);
  double v = 0.0;
  std::tie(v, a.psi_at_min) = refine_maximum([&](double psi) { return -angle(psi); }, a.psi_at_min,
                                             h, -a.min_pressure_angle);
  a.min_pressure_angle = -v;
  if (std::isfinite(a.min_convex_radius)) {
    const auto curvature = [&](double psi) {  // -radius on the convex side, else -inf
      const double r = cam_curve(motion(programme.at(psi)), psi, sense).radius;
      return r > 0.0 ? -r : -inf;
    };
    std::tie(v, a.psi_at_min_radius) =
        refine_maximum(curvature, a.psi_at_min_radius, h, -a.min_convex_radius);
    a.min_convex_radius = -v;
  }
  apply_roller(a, 0.0);
  return a;
}

void apply_roller(cam_analysis& a, double roller_radius) {
  a.roller_radius = roller_radius;
  a.undercut = roller_radius > 0.0 && roller_radius >= a.min_convex_radius;
  std::vector<Eigen::Vector2d> polygon;
  polygon.reserve(a.samples.size());
  for (auto& s : a.samples) {
    s.profile = s.pitch - roller_radius * s.outward;
    polygon.push_back(s.profile);
  }
  a.section = polygon_properties(polygon);
}

std::pair<double, double> refine_maximum(const std::function<double(double)>& f, double psi,
                                         double h, double sampled) {
  const auto [x, v] = golden_section_minimum([&](double t) { return -f(t); }, psi - h, psi + h, 80);
  if (-v < sampled) return {sampled, psi};
  return {-v, std::fmod(x + 2.0 * std::numbers::pi, 2.0 * std::numbers::pi)};
}

std::pair<double, double> periodic_maximum(const std::function<double(double)>& f, int n) {
  const double h = 2.0 * std::numbers::pi / n;
  int best = 0;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int i = 0; i < n; ++i) {
    const double v = f(i * h);
    if (v > best_value) best_value = v, best = i;
  }
  return refine_maximum(f, best * h, h, best_value);
}

std::pair<double, double> golden_section_minimum(const std::function<double(double)>& f, double lo,
                                                 double hi, int iterations) {
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < iterations; ++it) {
    if (f1 < f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
    }
  }
  return f1 < f2 ? std::pair{x1, f1} : std::pair{x2, f2};
}

void validate_roller_bounds(double max_pressure_angle, double roller_fraction, int samples) {
  if (!std::isfinite(max_pressure_angle) || max_pressure_angle <= 0.0 ||
      max_pressure_angle >= std::numbers::pi / 2) {
    throw io::option_error("max_pressure_angle", "must be in (0, 90) deg");
  }
  if (!std::isfinite(roller_fraction) || roller_fraction <= 0.0 || roller_fraction >= 1.0) {
    throw io::option_error("roller_fraction", "must be in (0, 1)");
  }
  if (samples < 36 || samples > max_cam_samples)
    throw io::option_error("samples", "must be in [36, 1e6]");
}

}  // namespace kinevo::synthesis
