// A single closed chain of n DH links (n = 7 for one degree of freedom: the 7R chain, the RSRC
// with its S as three R pairs and its C as an R and a P pair) driven at one joint, by damped
// Newton on the invariant formulation of Angeles et al., Diseño cinemático de maquinaria, paper
// "Subprogramas para el análisis de cadenas cinemáticas con 7 eslabones ...", eq. (1)-(6), with
// velocities by eq. (13) and accelerations by eq. (19)-(20).
//
// The loop Q_1 ... Q_n = 1, a_1 + Q_1 a_2 + ... + Q_1..Q_{n-1} a_n = 0 is cut at the input joint
// k: the open chain k+1, ..., n, 1, ..., k-1 (the loop read from frame k+1) must reach
// Q = Q_k^T and r = -Q_k^T a_k, which for a revolute input is a turning frame at a fixed point
// (the 7R paper's target Q = Q_7^T, r = (-a_7, 0, 0)).
#pragma once

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "kinevo/analysis/chain_path.hpp"
#include "kinevo/analysis/dh_chain.hpp"

namespace kinevo::analysis {

struct closed_chain {
  std::string name = "closed chain";
  std::vector<dh_link> links;  // the loop, link 1 first
  int input = 0;               // 0-based index of the driven joint
  void validate() const;       // io::option_error: n = 7 links (6 unknowns), input in range
};

// One value of the input joint with its rate and acceleration.
struct input_sample {
  double t = 0.0;
  double value = 0.0;
  double rate = 1.0;
  double acceleration = 0.0;
};

// One point from a guess of all n joint values (the input's entry is ignored).
chain_point solve_closed_chain(const closed_chain& chain, const input_sample& input,
                               const Eigen::VectorXd& guess, const chain_newton_options& options);

// A path by continuation: each point starts from the previous regular one, extrapolated with
// its rates. Singular configurations stepped over are found by the sign of det J.
chain_path_result analyze_closed_chain(const closed_chain& chain,
                                       const std::vector<input_sample>& inputs,
                                       const Eigen::VectorXd& start,
                                       const chain_newton_options& options);

}  // namespace kinevo::analysis
