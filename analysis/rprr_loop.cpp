#include "kinevo/analysis/rprr_loop.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kinevo/io/option_error.hpp"

namespace kinevo::analysis {

void rprr_dimensions::validate() const {
  io::require_real("a1", a1, io::positive());
  io::require_real("a2", a2, io::positive());
  validate_branch(branch);
}

rprr_loop::rprr_loop(const rprr_dimensions& d) : d_(d) {
  d_.validate();
}

loop_state rprr_loop::state_at(const motion_sample& in) const {
  loop_state s;
  const double a = in.value, a1 = d_.a1, a2 = d_.a2;
  const double cos_psi = (a * a - a1 * a1 - a2 * a2) / (2.0 * a1 * a2);  // eq. (27)
  if (!(a > 0.0) || !(std::abs(cos_psi) <= 1.0 + limit_round_off)) return s;
  const double psi = d_.branch * std::acos(std::clamp(cos_psi, -1.0, 1.0));
  const double theta = std::atan2(a2 * std::sin(psi), a2 * std::cos(psi) + a1);  // eq. (28)
  const double g = psi - theta;
  s.transmission_angle = wrap_angle(g);
  if (std::abs(std::sin(g)) < dead_point_tolerance) {
    s.status = loop_status::dead_point;
    s.outputs = {{wrap_angle(psi)}, {wrap_angle(theta)}};
    return s;
  }
  s.status = loop_status::ok;
  const double sg = std::sin(g), cg = std::cos(g), tg = std::tan(g);
  const double ad2 = in.rate * in.rate;
  // Eqs. (30), (31) (printed labels swapped: they are psidot and thetadot), and the corrected
  // second derivatives replacing the printed (32), (33) (reference: checked).
  const double psi_d = -in.rate / (a2 * sg);
  const double theta_d = -in.rate / (a * tg);
  const double psi_dd = -(a - a2 * cg) * ad2 / (a * a2 * a2 * tg * sg * sg) - in.accel / (a2 * sg);
  const double theta_dd =
      (a2 * cg * (1.0 + sg * sg) - a) * ad2 / (a2 * a * a * sg * sg * sg) - in.accel / (a * tg);
  s.outputs = {{wrap_angle(psi), psi_d, psi_dd}, {wrap_angle(theta), theta_d, theta_dd}};
  return s;
}

loop_mobility rprr_loop::mobility() const {
  loop_mobility m;
  m.kind = "stroke";
  m.limits = {std::abs(d_.a1 - d_.a2), d_.a1 + d_.a2};
  m.description = fmt::format("the length a moves in [{:.6g}, {:.6g}] (psi = 0 or 180 deg there)",
                              m.limits[0], m.limits[1]);
  return m;
}

std::string rprr_loop::describe() const {
  return fmt::format("RPRR (RESC12): a1 = {:g}, a2 = {:g}, branch {:+d}", d_.a1, d_.a2, d_.branch);
}

}  // namespace kinevo::analysis
