// The chains of the tests: the 7R and RSRC examples and the 6R hexflex of Angeles et al.,
// Diseño cinemático de maquinaria (same rows as examples/chain_*.toml).
#pragma once

#include <cmath>
#include <numbers>
#include <string>

#include "analysis/closed_chain.hpp"
#include "analysis/guidance_chain.hpp"

namespace kinevo::test {

inline constexpr double deg = std::numbers::pi / 180.0;

inline analysis::dh_link link(double a, double b, double alpha_deg,
                              analysis::pair_kind pair = analysis::pair_kind::revolute) {
  analysis::dh_link l;
  l.a = a;
  l.b = b;
  l.alpha = alpha_deg * deg;
  l.pair = pair;
  return l;
}

// 7R paper example, driven at joint 7.
inline analysis::closed_chain seven_r() {
  analysis::closed_chain c;
  const double alpha[7] = {90, 0, 90, 90, 0, 90, 0};
  for (int i = 0; i < 7; ++i) c.links.push_back(link(i == 6 ? 3.0 : 1.0, 0.0, alpha[i]));
  c.input = 6;
  return c;
}

// The symmetric branch theta = (t1, t2, -t2, 2 t1, t2, -t2, t1), cos t2 = -2 - 3/(2 cos t1).
inline Eigen::VectorXd seven_r_branch(double t1) {
  const double t2 = std::acos(std::clamp(-2.0 - 3.0 / (2.0 * std::cos(t1)), -1.0, 1.0));
  Eigen::VectorXd q(7);
  q << t1, t2, -t2, 2.0 * t1, t2, -t2, t1;
  return q;
}

// RSRC: a = 1, b = 3, c = 2, slide s = -b7; input joint 1.
inline analysis::closed_chain rsrc() {
  analysis::closed_chain c;
  c.links = {link(1, -2, 90),
             link(0, 0, 90),
             link(0, 0, 90),
             link(0, 3, 90),
             link(0, 0, 90),
             link(0, 0, 0),
             link(0, 0, 90, analysis::pair_kind::prismatic)};
  c.input = 0;
  return c;
}

inline Eigen::VectorXd rsrc_start() {
  Eigen::VectorXd q(7);
  q << 0, 116.6 * deg, 48.2 * deg, 0, -131.8 * deg, -63.4 * deg, -2.0;
  return q;
}

// 6R hexflex as the 5R arm 1..5 guiding A = O5, B = O6.
inline analysis::guidance_chain hexflex() {
  analysis::guidance_chain g;
  for (int i = 0; i < 5; ++i) g.links.push_back(link(1, 0, 90));
  return g;
}

inline analysis::guidance_target hexflex_target(double t) {
  analysis::guidance_target g;
  g.t = t;
  g.a << -(1 + std::cos(t)), 0, std::sin(t);
  g.a_dot << std::sin(t), 0, std::cos(t);
  g.a_ddot << std::cos(t), 0, -std::sin(t);
  g.b << -1, 0, 0;
  return g;
}

inline std::string test_data(const std::string& name) {
  return std::string(KINEVO_TEST_DATA) + "/analysis/" + name;
}

}  // namespace kinevo::test
