// The worked examples of Angeles et al., Diseño cinemático de maquinaria, as chains (the same
// rows as examples/chain_*.toml), for the tests and the benchmark: the 7R chain, the RSRC model
// and the 6R hexflex as a guidance problem.
#pragma once

#include <Eigen/Dense>

#include "kinevo/analysis/closed_chain.hpp"
#include "kinevo/analysis/guidance_chain.hpp"

namespace kinevo::analysis {

// 7R paper example: a1..a6 = 1, a7 = 3, b = 0, alpha = (90, 0, 90, 90, 0, 90, 0) deg, input 7.
closed_chain seven_r_example();
// The upper symmetric branch theta = (t1, t2, -t2, 2 t1, t2, -t2, t1), cos t2 = -2 - 3/(2 cos t1)
// (real for 120 <= t1 <= 240 deg).
Eigen::VectorXd seven_r_branch(double t1);

// RSRC paper example: a = 1, b = 3, c = 2 (S as three R pairs, C as R + P; slide s = -b7),
// input joint 1; a start near phi = 0 on the branch s = a sin(phi) + sqrt(...).
closed_chain rsrc_example();
Eigen::VectorXd rsrc_start();

// Guidance paper Example 1: the 5R arm a_i = 1, b_i = 0, alpha_i = 90 deg, and the points the
// closing link 6 holds for theta6 = t: r_A = (-(1 + cos t), 0, sin t), r_B = (-1, 0, 0).
guidance_chain hexflex_example();
guidance_target hexflex_target(double t);
Eigen::VectorXd hexflex_start();  // theta = (120, 0, -120, 0, 120) deg at t = 0

}  // namespace kinevo::analysis
