// The backtracking line search of the Newton family: a step shortened by a constant factor
// until the caller accepts it (NRDAMP's DX = DAMP * DX, Angeles et al., Diseño cinemático de
// maquinaria (1984); SANLSU's damped restoration step). Every damped Newton iteration of kinevo
// (synthesis, analysis, assembly, interior penalty, SANLSU) shortens its step through these.
#pragma once

#include <Eigen/Core>

namespace kinevo::numerics {

// Tries dx, damping dx, damping^2 dx, ... (dx scaled in place, one factor at a time as NRDAMP
// does) until accept(dx) holds: at most max_halvings + 1 trials. Returns the number of factors
// applied when a trial is accepted, max_halvings + 1 when none is (dx then holds the last trial,
// damping^max_halvings dx).
template <class Accept>
int backtrack(Eigen::VectorXd& dx, double damping, int max_halvings, const Accept& accept) {
  int halvings = 0;
  while (!accept(dx)) {
    if (++halvings > max_halvings) break;
    dx *= damping;
  }
  return halvings;
}

// The same on a step length t along a fixed direction: accept(t) for t = 1, damping,
// damping^2, ... (the power formed by repeated products), at most max_halvings + 1 trials.
// Returns the accepted length, or when none is accepted the last one tried times damping.
template <class Accept>
double backtrack_length(double damping, int max_halvings, const Accept& accept) {
  double t = 1.0;
  for (int k = 0; k <= max_halvings; ++k) {
    if (accept(t)) return t;
    t *= damping;
  }
  return t;
}

}  // namespace kinevo::numerics
