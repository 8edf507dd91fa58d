#include "kinevo/synthesis/linkages/mobility_conditions.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include <iterator>

#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"
#include "kinevo/synthesis/linkages/grashof.hpp"
#include "kinevo/synthesis/common/report_format.hpp"

namespace kinevo::synthesis {

coupler_mobility coupler_conditions(const Eigen::Vector3d& k) {
  coupler_mobility c;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  c.m1 = c.m2 = c.m3 = c.n1 = c.n2 = c.n3 = c.c32a = c.c32b = c.c37a = c.c37b = nan;
  // Signed links with a1 = 1 (eq. (5)); a3^2 from the inverse of eq. (1).
  const double a2 = 1.0 / k(1), a4 = 1.0 / k(2);
  const double a3sq = 1.0 + a2 * a2 + a4 * a4 - 2.0 * k(0) * a2 * a4;
  if (!(a3sq > 0.0) || !std::isfinite(a3sq)) return c;
  const double a3 = std::sqrt(a3sq);
  c.real = true;
  c.m1 = (a4 * a4 - 1.0 - a2 * a2 - a3sq) / (2.0 * a2 * a3);  // eq. (29)
  c.m2 = 1.0 / a2;
  c.m3 = 1.0 / a3;
  c.n1 = (1.0 - a2 * a2 + a3sq + a4 * a4) / (2.0 * a3 * a4);  // eq. (34)
  c.n2 = 1.0 / a4;
  c.n3 = 1.0 / a3;
  const auto sq = [](double x) { return x * x; };
  c.c32a = sq(1.0 - c.m3) - sq(c.m1 + c.m2);
  c.c32b = sq(1.0 + c.m3) - sq(c.m1 - c.m2);
  c.c37a = sq(1.0 + c.n3) - sq(c.n1 + c.n2);
  c.c37b = sq(1.0 - c.n3) - sq(c.n1 - c.n2);
  return c;
}

double coupler_condition(const Eigen::Vector3d& k, int which) {
  const auto c = coupler_conditions(k);
  return which == 0 ? c.c32a : c.c32b;
}

double output_factor(const Eigen::Vector3d& k, int which) {
  const Eigen::VectorXd ks = swap_input_output(k);
  return which == 0 ? input_crank_h1(ks) : input_crank_h2(ks);
}

double output_dead_point_curvature(const Eigen::Vector3d& k, double psi, double phi) {
  return -(k(0) + k(1) * std::cos(phi)) / (k(2) * std::sin(psi) - k(1) * std::sin(phi));
}

rocker_extremes output_rocker_extremes(const Eigen::Vector3d& k, double phi_on_circuit) {
  rocker_extremes r;
  const auto limits = output_rocker_limits(k);
  if (limits.count == 0) return r;
  constexpr double pi = std::numbers::pi;
  if (limits.count == 2) {
    // Two circuits, mirror images: phi in [acos c_hi, acos c_lo] or its negative.
    const double lo = std::acos(limits.cos_limit[1]), hi = std::acos(limits.cos_limit[0]);
    if (std::sin(phi_on_circuit) >= 0.0) {
      r.min = lo, r.max = hi;
    } else {
      r.min = -hi, r.max = -lo;
    }
  } else {
    // One limit +-x: the output swings through 0 or through pi, whichever assembles.
    const double x = std::acos(limits.cos_limit[0]);
    if (output_factor(k, 0) > 0.0) {
      r.min = -x, r.max = x;
    } else {
      r.min = x, r.max = 2.0 * pi - x;
    }
  }
  r.rocker = true;
  // At a dead point of the output the input angle is the double root of the swapped eq. (7):
  // psi = 2 atan(B'/A'), A' = k1 + k3 + (1 + k2) cos phi, B' = sin phi.
  const auto at = [&](double phi, double& psi, double& printed, double& curvature) {
    const double a = k(0) + k(2) + (1.0 + k(1)) * std::cos(phi);
    psi = 2.0 * std::atan2(std::sin(phi), a);
    printed = a;
    curvature = output_dead_point_curvature(k, psi, phi);
  };
  at(r.min, r.psi_at_min, r.printed_27a, r.curvature_min);
  at(r.max, r.psi_at_max, r.printed_27b, r.curvature_max);
  return r;
}

bool link_type_conditions::coupler_holds() const {
  if (coupler_required == "crank") return coupler.real && coupler.turns();
  if (coupler_required == "rocker") return coupler.real && !coupler.turns();
  return true;
}

link_type_conditions evaluate_link_types(const Eigen::Vector3d& k, double phi_on_circuit,
                                         bool output_rocker_required,
                                         const std::string& coupler_required) {
  link_type_conditions c;
  c.output_rocker_required = output_rocker_required;
  c.coupler_required = coupler_required;
  c.output_factor_zero = output_factor(k, 0);
  c.output_factor_pi = output_factor(k, 1);
  c.output_rocker =
      std::min(c.output_factor_zero, c.output_factor_pi) < 0.0 && !output_turns_fully(k);
  if (c.output_rocker) c.output_extremes = output_rocker_extremes(k, phi_on_circuit);
  c.coupler = coupler_conditions(k);
  return c;
}

namespace {

const char* verdict(bool required, bool holds) {
  if (!required) return "";
  return holds ? " [required: holds]" : " [required: FAILS]";
}

}  // namespace

std::string link_type_conditions::text() const {
  // Conditions are named in words a designer reads, the source's equation number in brackets.
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out,
                 "output link {}: output-crank condition, factors (19b) {:.6g} at phi = 0 and "
                 "{:.6g} at phi = 180 deg ({}){}\n",
                 output_rocker ? "oscillates (a rocker)" : "turns fully", output_factor_zero,
                 output_factor_pi, output_rocker ? "one negative" : "both positive",
                 verdict(output_rocker_required, output_holds()));
  if (output_rocker) {
    const auto& e = output_extremes;
    fmt::format_to(
        out,
        "output swings {:.4f} .. {:.4f} deg; curvature phi'' = {:.6g} at the minimum "
        "and {:.6g} at the maximum: {} (second-order conditions (27), corrected)\n",
        e.min / degree, e.max / degree, e.curvature_min, e.curvature_max,
        e.second_order_holds() ? "a true minimum and maximum" : "NOT a minimum and maximum");
    fmt::format_to(out,
                   "  the source's printed second-order conditions (27a) = {:.6g}, (27b) = {:.6g} "
                   "{} (misprinted, not used: docs/synthesis.md)\n",
                   e.printed_27a, e.printed_27b, e.printed_holds() ? "hold" : "do not hold");
  }
  if (coupler.real) {
    fmt::format_to(out,
                   "coupler {} relative to the frame: coupler-crank conditions (32a) = {:.6g}, "
                   "(32b) = {:.6g}, the same through the output (37a) = {:.6g}, (37b) = {:.6g} "
                   "({}; corrected forms){}\n",
                   coupler.turns() ? "turns fully" : "oscillates", coupler.c32a, coupler.c32b,
                   coupler.c37a, coupler.c37b,
                   coupler.turns() ? "all positive" : "not all positive",
                   verdict(coupler_required != "none", coupler_holds()));
  } else {
    fmt::format_to(out, "coupler: no real coupler length for these k{}\n",
                   verdict(coupler_required != "none", coupler_holds()));
  }
  return s;
}

nlohmann::json link_type_conditions::to_json() const {
  nlohmann::json o = {{"required", output_rocker_required ? "rocker" : "any"},
                      {"rocker", output_rocker},
                      {"factor_19b_at_0", json_number(output_factor_zero)},
                      {"factor_19b_at_pi", json_number(output_factor_pi)},
                      {"holds", output_holds()}};
  if (output_rocker) {
    const auto& e = output_extremes;
    o["min_deg"] = e.min / degree;
    o["max_deg"] = e.max / degree;
    o["curvature_at_min"] = json_number(e.curvature_min);
    o["curvature_at_max"] = json_number(e.curvature_max);
    o["second_order_holds"] = e.second_order_holds();
    o["printed_27a"] = e.printed_27a;
    o["printed_27b"] = e.printed_27b;
    o["printed_27_holds"] = e.printed_holds();
  }
  nlohmann::json c = {
      {"required", coupler_required},
      {"real", coupler.real},
      {"turns", coupler.real && coupler.turns()},
      {"m", {json_number(coupler.m1), json_number(coupler.m2), json_number(coupler.m3)}},
      {"n", {json_number(coupler.n1), json_number(coupler.n2), json_number(coupler.n3)}},
      {"c32a", json_number(coupler.c32a)},
      {"c32b", json_number(coupler.c32b)},
      {"c37a", json_number(coupler.c37a)},
      {"c37b", json_number(coupler.c37b)},
      {"holds", coupler_holds()}};
  return {{"output", o}, {"coupler", c}, {"holds", holds()}};
}

}  // namespace kinevo::synthesis
