#include "kinevo/synthesis/coupler_curve.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace kinevo::synthesis {

std::optional<path_position> path_position_at(const path_linkage& l, double theta2, int branch) {
  const Eigen::Vector2d a_local(l.r2 * std::cos(theta2), l.r2 * std::sin(theta2));
  const Eigen::Vector2d to_o4 = Eigen::Vector2d(l.r1, 0.0) - a_local;
  const double d = to_o4.norm();
  if (!(d > 0.0) || !(l.r3 > 0.0)) return std::nullopt;
  const double cos_beta = (l.r3 * l.r3 + d * d - l.r4 * l.r4) / (2.0 * l.r3 * d);
  if (!(std::abs(cos_beta) <= 1.0)) return std::nullopt;
  const double theta3 =
      std::atan2(to_o4.y(), to_o4.x()) + (branch >= 0 ? 1.0 : -1.0) * std::acos(cos_beta);
  const Eigen::Vector2d u(std::cos(theta3), std::sin(theta3));
  const Eigen::Vector2d v(-u.y(), u.x());
  const Eigen::Vector2d b_local = a_local + l.r3 * u;
  const Eigen::Vector2d c_local = a_local + l.rcx * u + l.rcy * v;
  const double c0 = std::cos(l.theta0), s0 = std::sin(l.theta0);
  const auto place = [&](const Eigen::Vector2d& p) {
    return Eigen::Vector2d(l.x0 + c0 * p.x() - s0 * p.y(), l.y0 + s0 * p.x() + c0 * p.y());
  };
  path_position p;
  p.o2 = place(Eigen::Vector2d::Zero());
  p.o4 = place(Eigen::Vector2d(l.r1, 0.0));
  p.a = place(a_local);
  p.b = place(b_local);
  p.c = place(c_local);
  p.theta3 = theta3;
  return p;
}

double path_transmission_angle(const path_linkage& l, double theta2) {
  const double d2 = l.r1 * l.r1 + l.r2 * l.r2 - 2.0 * l.r1 * l.r2 * std::cos(theta2);
  const double c = (l.r3 * l.r3 + l.r4 * l.r4 - d2) / (2.0 * l.r3 * l.r4);
  if (!(std::abs(c) <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
  return std::acos(c);
}

namespace {

std::array<double, 4> sorted_links(const path_linkage& l) {
  std::array<double, 4> s{l.r1, l.r2, l.r3, l.r4};
  std::sort(s.begin(), s.end());
  return s;
}

}  // namespace

double grashof_margin(const path_linkage& l) {
  const auto s = sorted_links(l);
  return (s[1] + s[2]) - (s[0] + s[3]);
}

double crank_rocker_margin(const path_linkage& l) {
  return std::min(grashof_margin(l), std::min({l.r1, l.r3, l.r4}) - l.r2);
}

std::string grashof_type(const path_linkage& l) {
  const auto s = sorted_links(l);
  const double margin = grashof_margin(l);
  if (std::abs(margin) <= 1e-12 * s[3]) return "change point";
  if (margin < 0.0) return "non-Grashof triple rocker";
  if (s[0] == l.r2) return "crank-rocker";
  if (s[0] == l.r1) return "double crank";
  if (s[0] == l.r4) return "rocker-crank";
  return "double rocker";
}

double link_ratio(const path_linkage& l) {
  const auto s = sorted_links(l);
  return s[0] > 0.0 ? s[3] / s[0] : std::numeric_limits<double>::infinity();
}

}  // namespace kinevo::synthesis
