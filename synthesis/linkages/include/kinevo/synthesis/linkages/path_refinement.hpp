// Local refinement of a path design: Levenberg-Marquardt on the residuals C^i - C_d^i (2 per
// point) over the link lengths, coupler point, frame and the free input angles, each correction
// the Householder least-squares solution of [J; sqrt(lambda) D] dx = [-r; 0] (Angeles et al.,
// Diseño cinemático de maquinaria (1984), Householder paper, eqs. (4)-(6), with Marquardt's
// damping). A step is taken only when the design stays feasible (bounds, link type, no branch
// or order defect, transmission angle) and the error falls, so the result is never worse.
#pragma once

#include "kinevo/synthesis/linkages/path_problem.hpp"

namespace kinevo::synthesis {

struct path_refinement_options {
  long long max_evaluations = 2000;  // residual evaluations, the Jacobian's included
  int max_iterations = 200;
  double tol = 1e-15;  // stop when the error's relative decrease is below this
  // Stop as "stalled" when `stall_steps` accepted steps lowered the error by less than
  // `stall_fraction` of it in all (crawling along a flat valley: better spent elsewhere).
  int stall_steps = 10;
  double stall_fraction = 0.01;
};

struct path_refinement_result {
  path_design design;
  double objective = 0.0;
  long long evaluations = 0;
  int iterations = 0;  // accepted steps
  bool improved = false;
  std::string stop;  // why it stopped
};

// `start` must be feasible (else it is returned unchanged with stop = "start infeasible").
path_refinement_result refine_path_design(const path_problem& p, const path_design& start,
                                          const path_refinement_options& options = {});

}  // namespace kinevo::synthesis
