#include "kinevo/analysis/example_chains.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace kinevo::analysis {

namespace {

constexpr double deg = std::numbers::pi / 180.0;

dh_link link(double a, double b, double alpha_deg, pair_kind pair = pair_kind::revolute) {
  return dh_row(a, b, alpha_deg, pair);
}

}  // namespace

closed_chain seven_r_example() {
  closed_chain c;
  c.name = "7R chain";
  const double alpha[7] = {90, 0, 90, 90, 0, 90, 0};
  for (int i = 0; i < 7; ++i) c.links.push_back(link(i == 6 ? 3.0 : 1.0, 0.0, alpha[i]));
  c.input = 6;
  return c;
}

Eigen::VectorXd seven_r_branch(double t1) {
  const double t2 = std::acos(std::clamp(-2.0 - 3.0 / (2.0 * std::cos(t1)), -1.0, 1.0));
  Eigen::VectorXd q(7);
  q << t1, t2, -t2, 2.0 * t1, t2, -t2, t1;
  return q;
}

closed_chain rsrc_example() {
  closed_chain c;
  c.name = "RSRC chain";
  c.links = {link(1, -2, 90),
             link(0, 0, 90),
             link(0, 0, 90),
             link(0, 3, 90),
             link(0, 0, 90),
             link(0, 0, 0),
             link(0, 0, 90, pair_kind::prismatic)};
  c.input = 0;
  return c;
}

Eigen::VectorXd rsrc_start() {
  Eigen::VectorXd q(7);
  q << 0, 116.6 * deg, 48.2 * deg, 0, -131.8 * deg, -63.4 * deg, -2.0;
  return q;
}

guidance_chain hexflex_example() {
  guidance_chain g;
  g.name = "6R hexflex";
  for (int i = 0; i < 5; ++i) g.links.push_back(link(1, 0, 90));
  return g;
}

guidance_target hexflex_target(double t) {
  guidance_target g;
  g.t = t;
  g.a << -(1 + std::cos(t)), 0, std::sin(t);
  g.a_dot << std::sin(t), 0, std::cos(t);
  g.a_ddot << std::cos(t), 0, -std::sin(t);
  g.b << -1, 0, 0;
  return g;
}

Eigen::VectorXd hexflex_start() {
  Eigen::VectorXd q(5);
  q << 120 * deg, 0, -120 * deg, 0, 120 * deg;
  return q;
}

}  // namespace kinevo::analysis
