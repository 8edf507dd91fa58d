// Guidance of an axially symmetric body by an open chain of revolute pairs (5 DOF: the 6R
// chain with its last pair removed), after Angeles et al., Diseño cinemático de maquinaria,
// paper "Guidance of axially symmetric rigid bodies using fifth-degree of freedom revolute
// coupled manipulators": two points of the body's axis, A = O_n (eq. (3a,b)) and B = O_{n+1}
// (eq. (4a,b)), must follow r_A(t), r_B(t); f = [x_1 - r_A; y_1 - r_B] (eq. (5)-(7)) is six
// equations in n = 5 unknowns, solved by Newton with the least-squares step (eq. (8)-(10)) by
// Householder QR, never the normal equations; velocities by eq. (13)-(15) and accelerations by
// eq. (16)-(19) with the fixed eq. (20): qddot = J^I a (the printed J^-1 has no meaning for a
// 6 x 5 J).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "kinevo/analysis/chain_path.hpp"
#include "kinevo/analysis/dh_chain.hpp"

namespace kinevo::analysis {

struct guidance_chain {
  std::string name = "guidance";
  std::vector<dh_link> links;  // n revolute links: A = O_n, B = O_{n+1}
  void validate() const;       // io::option_error: 2..6 revolute links
};

// The guided points at time t, with their velocities and accelerations (frame 1).
struct guidance_target {
  double t = 0.0;
  Eigen::Vector3d a = Eigen::Vector3d::Zero(), a_dot = Eigen::Vector3d::Zero(),
                  a_ddot = Eigen::Vector3d::Zero();
  Eigen::Vector3d b = Eigen::Vector3d::Zero(), b_dot = Eigen::Vector3d::Zero(),
                  b_ddot = Eigen::Vector3d::Zero();
};

// Points A and B of the chain at joint values q (forward kinematics).
struct guided_points {
  Eigen::Vector3d a, b;
};
guided_points guided_points_at(const guidance_chain& chain, const Eigen::VectorXd& q);

// The 6 x n Jacobian [dA/dq; dB/dq].
Eigen::MatrixXd guidance_jacobian(const guidance_chain& chain, const Eigen::VectorXd& q);

// The points of a motion by continuation, the first from `start` (a single target: one point
// from that guess).
chain_path_result analyze_guidance(const guidance_chain& chain,
                                   const std::vector<guidance_target>& targets,
                                   const Eigen::VectorXd& start,
                                   const chain_newton_options& options);

}  // namespace kinevo::analysis
