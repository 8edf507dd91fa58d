#include "kinevo/synthesis/linkages/coupler_curve.hpp"

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

std::optional<path_coupler_jacobian> path_coupler_derivatives(const path_linkage& l, double theta2,
                                                              int branch) {
  const double c2 = std::cos(theta2), s2 = std::sin(theta2);
  const Eigen::Vector2d q(l.r1 - l.r2 * c2, -l.r2 * s2);  // A -> O4
  const double d = q.norm();
  if (!(d > 0.0) || !(l.r3 > 0.0)) return std::nullopt;
  const double cb = (l.r3 * l.r3 + d * d - l.r4 * l.r4) / (2.0 * l.r3 * d);
  const double sb = std::sqrt(std::max(0.0, (1.0 - cb) * (1.0 + cb)));
  if (!(std::abs(cb) <= 1.0) || !(sb > 0.0)) return std::nullopt;
  const double sign = branch >= 0 ? 1.0 : -1.0;
  const double theta3 = std::atan2(q.y(), q.x()) + sign * std::acos(cb);
  const Eigen::Vector2d u(std::cos(theta3), std::sin(theta3)), v(-u.y(), u.x());
  // The diagonal's direction gamma and length d as functions of r1, r2, theta2 (through q).
  const Eigen::Vector2d q_r1(1.0, 0.0), q_r2(-c2, -s2), q_th2(l.r2 * s2, -l.r2 * c2);
  const auto gamma_of = [&](const Eigen::Vector2d& dq) {
    return (q.x() * dq.y() - q.y() * dq.x()) / (d * d);
  };
  const auto d_of = [&](const Eigen::Vector2d& dq) { return q.dot(dq) / d; };
  const double cb_d = (d * d - l.r3 * l.r3 + l.r4 * l.r4) / (2.0 * l.r3 * d * d);
  const double cb_r3 = (l.r3 * l.r3 - d * d + l.r4 * l.r4) / (2.0 * l.r3 * l.r3 * d);
  const double cb_r4 = -l.r4 / (l.r3 * d);
  const auto theta3_of = [&](const Eigen::Vector2d& dq) {
    return gamma_of(dq) - sign * cb_d * d_of(dq) / sb;
  };
  // C = A + rcx u + rcy v in the linkage's frame; dC / dtheta3 = rcx v - rcy u.
  const Eigen::Vector2d c_theta3 = l.rcx * v - l.rcy * u;
  Eigen::Matrix<double, 2, 10> local = Eigen::Matrix<double, 2, 10>::Zero();
  local.col(0) = c_theta3 * theta3_of(q_r1);
  local.col(1) = Eigen::Vector2d(c2, s2) + c_theta3 * theta3_of(q_r2);
  local.col(2) = c_theta3 * (-sign * cb_r3 / sb);
  local.col(3) = c_theta3 * (-sign * cb_r4 / sb);
  local.col(4) = u;
  local.col(5) = v;
  local.col(9) = Eigen::Vector2d(-l.r2 * s2, l.r2 * c2) + c_theta3 * theta3_of(q_th2);
  const Eigen::Vector2d c_local = l.r2 * Eigen::Vector2d(c2, s2) + l.rcx * u + l.rcy * v;
  const double c0 = std::cos(l.theta0), s0 = std::sin(l.theta0);
  Eigen::Matrix2d rot;
  rot << c0, -s0, s0, c0;
  path_coupler_jacobian j = rot * local;
  j.col(6) = Eigen::Vector2d(1.0, 0.0);
  j.col(7) = Eigen::Vector2d(0.0, 1.0);
  j.col(8) = rot * Eigen::Vector2d(-c_local.y(), c_local.x());
  return j;
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
