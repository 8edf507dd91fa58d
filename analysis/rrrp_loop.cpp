#include "kinevo/analysis/rrrp_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "kinevo/io/option_error.hpp"

namespace kinevo::analysis {

void rrrp_dimensions::validate() const {
  io::require_real("a1", a1, io::any_finite());
  io::require_real("a2", a2, io::positive());
  io::require_real("a3", a3, io::positive());
  validate_branch(branch);
}

rrrp_loop::rrrp_loop(const rrrp_dimensions& d) : d_(d) {
  d_.validate();
}

loop_state rrrp_loop::state_at(const motion_sample& in) const {
  loop_state s;
  const double psi = in.value, a1 = d_.a1, a2 = d_.a2, a3 = d_.a3;
  const double sin_phi = (a1 + a2 * std::sin(psi)) / a3;  // eq. (35), sign fixed
  if (!(std::abs(sin_phi) <= 1.0 + limit_round_off)) return s;
  const double base = std::asin(std::clamp(sin_phi, -1.0, 1.0));
  const double phi = d_.branch > 0 ? base : std::numbers::pi - base;
  const double cp = std::cos(phi), sp = std::sin(phi), cs = std::cos(psi), ss = std::sin(psi);
  const double a = a2 * cs + a3 * cp;  // eq. (34a)
  s.transmission_angle = wrap_angle(std::numbers::pi / 2 - phi);
  if (std::abs(cp) < dead_point_tolerance) {  // coupler normal to the slide
    s.status = loop_status::dead_point;
    s.outputs = {{wrap_angle(phi)}, {a}};
    return s;
  }
  s.status = loop_status::ok;
  const double w = in.rate, w2 = w * w;
  const double phi_d = a2 * cs * w / (a3 * cp);           // eq. (37a), sign fixed
  const double a_d = -a2 * std::sin(psi + phi) * w / cp;  // eq. (37b)
  // Eq. (38a,b) are garbled; these are the reference's corrected forms (checked).
  const double phi_dd = (a2 * cs * in.accel - a2 * ss * w2 + a3 * sp * phi_d * phi_d) / (a3 * cp);
  const double a_dd = -a2 * (cs * w2 + ss * in.accel) - a3 * (cp * phi_d * phi_d + sp * phi_dd);
  s.outputs = {{wrap_angle(phi), phi_d, phi_dd}, {a, a_d, a_dd}};
  return s;
}

loop_mobility rrrp_loop::mobility() const {
  // The coupler is normal to the slide (sin phi = +-1) at sin psi = (+-a3 - a1)/a2: eq. (36a)
  // sin psi1 = (a3 - a1)/a2, psi2 = -(psi1 + 180 deg), and the same for sin phi = -1.
  loop_mobility m;
  for (const double s : {(d_.a3 - d_.a1) / d_.a2, (-d_.a3 - d_.a1) / d_.a2}) {
    if (std::abs(s) >= 1.0) continue;
    const double p1 = std::asin(s);
    m.limits.push_back(p1);
    m.limits.push_back(wrap_angle(-(p1 + std::numbers::pi)));
  }
  std::sort(m.limits.begin(), m.limits.end());
  const double deg = 180.0 / std::numbers::pi;
  if (m.limits.empty()) {
    const bool any = std::abs(d_.a1) < d_.a3;
    m.kind = any ? "crank" : "none";
    m.description = any ? "no limit position, the input is a crank"
                        : "the loop cannot be assembled at any input angle";
  } else {
    m.kind = "rocker";
    std::string list;
    for (const double l : m.limits) list += fmt::format(" {:.6g}", l * deg);
    m.description = "rocker, limits (deg):" + list;
  }
  return m;
}

std::string rrrp_loop::describe() const {
  return fmt::format("RRRP (RESC13): a1 = {:g}, a2 = {:g}, a3 = {:g}, branch {:+d}", d_.a1, d_.a2,
                     d_.a3, d_.branch);
}

}  // namespace kinevo::analysis
