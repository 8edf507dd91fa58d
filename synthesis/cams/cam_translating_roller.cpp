#include "kinevo/synthesis/cams/cam_translating_roller.hpp"

#include <fmt/format.h>

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

follower_motion translating_motion(const translating_roller_design& d) {
  return [d](const programme_value& v) {
    return follower_point{vec(d.e, d.c + v.s), vec(0.0, v.ds), vec(0.0, v.dds)};
  };
}

// The box clipped by the half-planes n.x <= m (Sutherland-Hodgman on a convex polygon).
std::vector<vec> clip(const std::vector<vec>& poly, const vec& n, double m) {
  std::vector<vec> out;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const vec& p = poly[i];
    const vec& q = poly[(i + 1) % poly.size()];
    const double fp = n.dot(p) - m, fq = n.dot(q) - m;
    if (fp <= 0.0) out.push_back(p);
    if ((fp < 0.0 && fq > 0.0) || (fp > 0.0 && fq < 0.0))
      out.push_back(p + fp / (fp - fq) * (q - p));
  }
  return out;
}

bool inside(const std::vector<vec>& poly, const vec& x) {
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const vec e = poly[(i + 1) % poly.size()] - poly[i];
    const vec r = x - poly[i];
    if (e.x() * r.y() - e.y() * r.x() < -1e-12 * (1.0 + e.norm() * r.norm())) return false;
  }
  return true;
}

vec nearest_to_origin(const std::vector<vec>& poly) {
  if (inside(poly, vec::Zero())) return vec::Zero();
  vec best = poly[0];
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const vec& p = poly[i];
    const vec e = poly[(i + 1) % poly.size()] - p;
    const double t =
        e.squaredNorm() > 0.0 ? std::clamp(-p.dot(e) / e.squaredNorm(), 0.0, 1.0) : 0.0;
    const vec x = p + t * e;
    if (x.norm() < best.norm()) best = x;
  }
  return best;
}

double roller_of(const cam_analysis& a, const translating_roller_options& o) {
  return std::max(o.roller_fraction * a.min_convex_radius, o.min_roller_radius);
}

// The curvature bound on a point of the pressure-angle region: the roller the fraction gives is
// at least the required one.
bool curvature_ok(const cam_motion_programme& p, const vec& ce, const translating_roller_options& o,
                  int n) {
  const translating_roller_design d{ce.x(), ce.y()};
  const auto a = sample_cam(
      p, translating_motion(d), [](const programme_value&) { return 0.0; }, 1, n);
  return std::isfinite(a.min_convex_radius) &&
         o.roller_fraction * a.min_convex_radius >= o.min_roller_radius;
}

// The region as half-planes n.x <= m.
struct half_plane {
  vec n;
  double m;
};

// The part of the ray t u (t >= 0) inside every half-plane: [t_in, t_out], empty if t_in > t_out.
std::pair<double, double> ray_segment(const std::vector<half_plane>& region, const vec& u) {
  double lo = 0.0, hi = std::numeric_limits<double>::infinity();
  for (const auto& h : region) {
    const double nu = h.n.dot(u);
    if (nu > 0.0)
      hi = std::min(hi, h.m / nu);
    else if (nu < 0.0)
      lo = std::max(lo, h.m / nu);
    else if (h.m < 0.0)
      return {1.0, 0.0};
  }
  return {lo, hi};
}

// Along the ray of direction u, the smallest t whose cam meets the curvature bound (bisection:
// the cam grows along the ray), or infinity when not even the ray's end in the box does.
double smallest_on_ray(const cam_motion_programme& p, const std::vector<half_plane>& region,
                       const vec& u, const translating_roller_options& o, int n) {
  constexpr double none = std::numeric_limits<double>::infinity();
  auto [lo, hi] = ray_segment(region, u);
  if (!(lo <= hi) || !std::isfinite(hi) || !curvature_ok(p, hi * u, o, n)) return none;
  if (curvature_ok(p, lo * u, o, n)) return lo;
  for (int it = 0; it < 50 && hi - lo > 1e-9 * hi; ++it) {
    const double m = 0.5 * (lo + hi);
    (curvature_ok(p, m * u, o, n) ? hi : lo) = m;
  }
  return hi;
}

// The smallest base radius meeting the curvature bound: a scan over the directions of the
// half-plane c > 0, then golden section between the best direction's neighbours.
std::optional<vec> curvature_optimum(const cam_motion_programme& p,
                                     const std::vector<half_plane>& region,
                                     const translating_roller_options& o, int n) {
  const auto along = [&](double b) {
    return smallest_on_ray(p, region, vec(std::cos(b), std::sin(b)), o, n);
  };
  constexpr int scan = 180;
  const double step = std::numbers::pi / scan;
  double best_b = 0.0, best = std::numeric_limits<double>::infinity();
  for (int k = 1; k < scan; ++k) {
    const double b = -std::numbers::pi / 2 + k * step;
    if (const double t = along(b); t < best) best = t, best_b = b;
  }
  if (!std::isfinite(best)) return std::nullopt;
  const auto [b, t] = golden_section_minimum(along, best_b - step, best_b + step, 40);
  if (t < best) return t * vec(std::cos(b), std::sin(b));
  return best * vec(std::cos(best_b), std::sin(best_b));
}

}  // namespace

void translating_roller_options::validate() const {
  validate_roller_bounds(max_pressure_angle, roller_fraction, samples);
  io::require_option(std::isfinite(min_roller_radius) && min_roller_radius >= 0.0,
                     "min_roller_radius", "must be finite and >= 0");
  io::require_option(std::isfinite(c_min) && std::isfinite(c_max) && c_min > 0.0 && c_min < c_max,
                     "c", "box must be finite with 0 < min < max");
  io::require_option(std::isfinite(e_min) && std::isfinite(e_max) && e_min < e_max, "e",
                     "box must be finite with min < max");
}

double translating_roller_design::base_radius() const {
  return std::hypot(c, e);
}

double translating_pressure_angle(const programme_value& v, const translating_roller_design& d) {
  return std::atan2(v.ds - d.e, d.c + v.s);
}

translating_source_design translating_roller_source_design(const cam_motion_programme& p,
                                                           const translating_roller_options& o) {
  const double t = std::tan(o.max_pressure_angle);
  std::size_t rise = 0;
  while (rise < p.phases().size() && p.phases()[rise].kind != cam_phase_kind::rise) ++rise;
  if (rise == p.phases().size())
    throw io::option_error("phase", "the source's method needs a rise");
  // (17) fixed: f = sigma'' - t sigma' > 0 at the start of the rise, < 0 at its middle.
  const auto f = [&](double psi) {
    const auto v = p.at(psi);
    return v.dds - t * v.ds;
  };
  double lo = p.start(rise) + 1e-9, hi = p.start(rise) + 0.5 * p.phases()[rise].interval;
  for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
    const double m = 0.5 * (lo + hi);
    (f(m) > 0.0 ? lo : hi) = m;
  }
  translating_source_design s;
  s.psi0 = 0.5 * (lo + hi);
  s.sigma0 = p.at(s.psi0);
  s.design.c = 0.5 * (s.sigma0.ds / t - s.sigma0.s);  // (18a,b)
  s.design.e = 0.5 * (s.sigma0.ds - s.sigma0.s * t);  // (18a,c)
  return s;
}

cam_analysis analyse_translating_roller(const cam_motion_programme& p,
                                        const translating_roller_design& d,
                                        const translating_roller_options& o) {
  auto a = sample_cam(
      p, translating_motion(d),
      [d](const programme_value& v) { return translating_pressure_angle(v, d); }, 1, o.samples);
  apply_roller(a, roller_of(a, o));
  return a;
}

translating_roller_optimum optimise_translating_roller(const cam_motion_programme& p,
                                                       const translating_roller_options& o) {
  const double t = std::tan(o.max_pressure_angle);
  translating_roller_optimum r;
  r.wedge_a = periodic_maximum(
                  [&](double psi) {
                    const auto v = p.at(psi);
                    return v.ds - t * v.s;
                  },
                  o.samples)
                  .first;
  r.wedge_b = -periodic_maximum(
                   [&](double psi) {
                     const auto v = p.at(psi);
                     return -(v.ds + t * v.s);
                   },
                   o.samples)
                   .first;
  // A hair inside the wedge, so that round-off in the extremes cannot put the bound at 30.0000001.
  const double margin = 1e-9 * (1.0 + p.max_displacement());
  const std::vector<half_plane> planes{{vec(-1.0, 0.0), -o.c_min},
                                       {vec(1.0, 0.0), o.c_max},
                                       {vec(0.0, -1.0), -o.e_min},
                                       {vec(0.0, 1.0), o.e_max},
                                       {vec(-t, -1.0), -(r.wedge_a + margin)},  // e >= a - t c
                                       {vec(-t, 1.0), r.wedge_b - margin}};     // e <= b + t c
  std::vector<vec> region{
      {o.c_min, o.e_min}, {o.c_max, o.e_min}, {o.c_max, o.e_max}, {o.c_min, o.e_max}};
  for (std::size_t i = 4; i < planes.size(); ++i) region = clip(region, planes[i].n, planes[i].m);
  if (region.size() < 3) return r;
  vec best = nearest_to_origin(region);
  constexpr int coarse = 720;  // samples per curvature check during the search
  if (o.min_roller_radius > 0.0 && !curvature_ok(p, best, o, o.samples)) {
    r.curvature_active = true;
    const auto x = curvature_optimum(p, planes, o, coarse);
    if (!x) return r;
    best = *x;
    // The search sampled the cam coarsely: step out along the ray until the full check agrees.
    for (int it = 0; it < 60 && !curvature_ok(p, best, o, o.samples); ++it) best *= 1.0 + 1e-6;
    const bool in_box = std::all_of(planes.begin(), planes.end(),
                                    [&](const half_plane& h) { return h.n.dot(best) <= h.m; });
    if (!in_box || !curvature_ok(p, best, o, o.samples)) return r;
  }
  r.found = true;
  r.design = {best.x(), best.y()};
  return r;
}

}  // namespace kinevo::synthesis
