#include "kinevo/analysis/rrrr_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "kinevo/io/option_error.hpp"

namespace kinevo::analysis {

namespace {

double coupler_angle(const rrrr_dimensions& d, double psi, double phi) {
  // theta from the loop itself; it satisfies eq. (18) (reference: derived, checked).
  return std::atan2(d.a4 * std::sin(phi) - d.a2 * std::sin(psi),
                    d.a1 + d.a4 * std::cos(phi) - d.a2 * std::cos(psi));
}

// Partials of eq. (1') f(psi, phi) = k1 - k2 cos(phi) + k3 cos(psi) + cos(phi - psi).
implicit_partials output_partials(const std::array<double, 3>& k, double psi, double phi) {
  const double s = std::sin(phi - psi), c = std::cos(phi - psi);
  return {-k[2] * std::sin(psi) + s, k[1] * std::sin(phi) - s, -k[2] * std::cos(psi) - c, c,
          k[1] * std::cos(phi) - c};
}

// Partials of eq. (18) g(psi, theta) = L1 + L2 cos(psi) + L3 cos(theta) - cos(psi - theta),
// L1 = (a4^2 - a1^2 - a2^2 - a3^2)/(2 a2 a3), L2 = a1/a3, L3 = a1/a2 (reference: derived).
implicit_partials coupler_partials(const rrrr_dimensions& d, double psi, double theta) {
  const double l2 = d.a1 / d.a3, l3 = d.a1 / d.a2;
  const double s = std::sin(psi - theta), c = std::cos(psi - theta);
  return {-l2 * std::sin(psi) + s, -l3 * std::sin(theta) - s, -l2 * std::cos(psi) + c, -c,
          -l3 * std::cos(theta) + c};
}

// Coupler point, eqs. (24a,b): P = a2 e^{i psi} + r e^{i(theta + alpha)}, with its derivatives.
std::array<kinematic_value, 2> coupler_point(const rrrr_dimensions& d, const motion_sample& in,
                                             const kinematic_value& th) {
  const double b = th.value + d.coupler_alpha, r = d.coupler_r;
  const double cp = std::cos(in.value), sp = std::sin(in.value), cb = std::cos(b), sb = std::sin(b);
  const double pd2 = in.rate * in.rate, td2 = th.rate * th.rate;
  kinematic_value x{d.a2 * cp + r * cb, -d.a2 * sp * in.rate - r * sb * th.rate,
                    -d.a2 * (cp * pd2 + sp * in.accel) - r * (cb * td2 + sb * th.accel)};
  kinematic_value y{d.a2 * sp + r * sb, d.a2 * cp * in.rate + r * cb * th.rate,
                    d.a2 * (-sp * pd2 + cp * in.accel) + r * (-sb * td2 + cb * th.accel)};
  return {x, y};
}

}  // namespace

void rrrr_dimensions::validate() const {
  io::require_real("a1", a1, io::positive());
  io::require_real("a2", a2, io::positive());
  io::require_real("a3", a3, io::positive());
  io::require_real("a4", a4, io::positive());
  io::require_real("coupler_r", coupler_r, io::non_negative());
  io::require_real("coupler_alpha", coupler_alpha, io::any_finite());
  validate_branch(branch);
}

std::array<double, 3> freudenstein_k(const rrrr_dimensions& d) {
  return {(d.a3 * d.a3 - d.a1 * d.a1 - d.a2 * d.a2 - d.a4 * d.a4) / (2.0 * d.a2 * d.a4),
          d.a1 / d.a2, d.a1 / d.a4};
}

std::vector<double> rrrr_output_roots(const rrrr_dimensions& d, double psi) {
  const auto [k1, k2, k3] = freudenstein_k(d);
  const double a = k1 + k2 - (1.0 - k3) * std::cos(psi);  // eq. (5a)
  const double b = 2.0 * std::sin(psi);                   // eq. (5b)
  const double c = k1 - k2 + (1.0 + k3) * std::cos(psi);  // eq. (5c)
  double disc = b * b - 4.0 * a * c;
  // A limit position computed in floating point may give a discriminant of -1e-16: a double root.
  if (disc < 0.0 && disc > -limit_round_off * (b * b + std::abs(4.0 * a * c))) disc = 0.0;
  if (disc < 0.0) return {};
  // q = A T1 of eq. (7a) (fixed sign); T2 = C/q is eq. (7b) without the cancellation of the
  // textbook formula, and stays finite when A -> 0 (T1 -> infinity, phi1 -> pi).
  const double q = -0.5 * (b + std::copysign(std::sqrt(disc), b == 0.0 ? 1.0 : b));
  if (q == 0.0) return {0.0, 0.0};  // B = 0 and AC = 0: the double root T = 0
  return {2.0 * std::atan(q / a), 2.0 * std::atan(c / q)};
}

std::array<double, 2> rrrr_dead_point_cosines(const rrrr_dimensions& d) {
  const auto [k1, k2, k3] = freudenstein_k(d);
  const double b = (k2 + k1 * k3) / (k3 * k3);              // eq. (10a), fixed
  const double c = (k1 * k1 - k2 * k2 - 1.0) / (k3 * k3);   // eq. (10b), fixed
  const double root = std::sqrt(std::max(0.0, b * b - c));  // >= 0 in exact arithmetic, eq. (12)
  return {-b - root, -b + root};
}

rrrr_loop::rrrr_loop(const rrrr_dimensions& d) : d_(d) {
  d_.validate();
}

std::vector<std::string> rrrr_loop::output_names() const {
  return {"phi", "theta", "coupler_x", "coupler_y"};
}

loop_state rrrr_loop::state_at(const motion_sample& in) const {
  loop_state s;
  const double psi = in.value;
  const auto roots = rrrr_output_roots(d_, psi);
  if (roots.empty()) return s;
  // The root on the requested side of the diagonal: sign of sin(phi - theta).
  double phi = roots[0], theta = coupler_angle(d_, psi, roots[0]);
  if (std::sin(phi - theta) * d_.branch < 0.0) {
    phi = roots[1];
    theta = coupler_angle(d_, psi, phi);
  }
  s.transmission_angle = wrap_angle(phi - theta);  // eq. (25), fixed: mu = phi - theta
  const bool dead =
      std::abs(std::sin(phi - theta)) < dead_point_tolerance;  // coupler and output link aligned
  s.status = dead ? loop_status::dead_point : loop_status::ok;
  if (dead) {
    s.outputs = {{wrap_angle(phi)}, {wrap_angle(theta)}, {}, {}};
    return s;
  }
  kinematic_value p = implicit_motion(phi, output_partials(freudenstein_k(d_), psi, phi), in);
  kinematic_value t = implicit_motion(theta, coupler_partials(d_, psi, theta), in);
  const auto point = coupler_point(d_, in, t);
  p.value = wrap_angle(p.value);
  t.value = wrap_angle(t.value);
  s.outputs = {p, t, point[0], point[1]};
  return s;
}

loop_mobility rrrr_loop::mobility() const {
  std::vector<double> inside;  // dead-point cosines strictly inside (-1, 1)
  for (const double c : rrrr_dead_point_cosines(d_)) {
    if (std::abs(c) < 1.0) inside.push_back(c);
  }
  loop_mobility m;
  const bool assembles_at_zero = !rrrr_output_roots(d_, 0.0).empty();
  if (inside.empty()) {
    const bool any = assembles_at_zero || !rrrr_output_roots(d_, std::numbers::pi).empty();
    m.kind = any ? "crank" : "none";
    m.description = any ? "case iii: no limit position, the input is a crank"
                        : "the loop cannot be assembled at any input angle";
    return m;
  }
  for (const double c : inside) {
    m.limits.push_back(std::acos(c));
    m.limits.push_back(-std::acos(c));
  }
  std::sort(m.limits.begin(), m.limits.end());
  m.kind = "rocker";
  const double deg = 180.0 / std::numbers::pi;
  if (inside.size() == 2) {
    m.description =
        fmt::format("case i: rocker between {:.6g} and {:.6g} deg (and the mirror range)",
                    std::acos(inside[1]) * deg, std::acos(inside[0]) * deg);
  } else {
    m.description = fmt::format("case ii: rocker with limits +-{:.6g} deg, moving through {} deg",
                                std::acos(inside[0]) * deg, assembles_at_zero ? 0 : 180);
  }
  return m;
}

std::string rrrr_loop::describe() const {
  return fmt::format(
      "RRRR (RESC11): a1 = {:g}, a2 = {:g}, a3 = {:g}, a4 = {:g}, coupler point r = "
      "{:g} alpha = {:g} rad, branch {:+d}",
      d_.a1, d_.a2, d_.a3, d_.a4, d_.coupler_r, d_.coupler_alpha, d_.branch);
}

}  // namespace kinevo::analysis
