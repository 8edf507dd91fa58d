// The follower-displacement programme of the cam papers: dwells, rises and returns, each rise or
// return the spline basic function scaled to its interval and displacement. Angeles et al., Diseño
// cinemático de maquinaria, paper "Optimal synthesis of translating-follower cam mechanisms",
// eqs. (1)-(3); the oscillating and flat-face papers use the same function.
#pragma once

#include <vector>

namespace kinevo::synthesis {

// The unit rise R(u) = tau(u) + 1/2 on [0, pi]: a cubic spline with knots every pi/20 (m = 11
// per quarter period) and prescribed knot accelerations tau''_i = k sin 2u_i (eq. (1a), fixed:
// printed k sin u_i, but tau'' must vanish at 0 and pi/2), so R'' is piecewise linear; k makes
// R(pi) = 1.
class cam_basic_function {
 public:
  static const cam_basic_function& instance();
  double k() const { return k_; }
  // R^(der)(u) for der in {0, 1, 2, 3}; u is clamped to [0, pi].
  double operator()(double u, int der = 0) const;

 private:
  cam_basic_function();
  double k_ = 0.0;
  std::vector<double> knot_, acc_, vel_, pos_;
};

enum class cam_phase_kind { dwell, rise, fall };

struct cam_phase {
  cam_phase_kind kind = cam_phase_kind::dwell;
  double interval = 0.0;      // cam rotation over the phase, radians
  double displacement = 0.0;  // size of the rise or return (> 0); 0 for a dwell
};

// sigma and its derivatives with respect to the cam angle psi.
struct programme_value {
  double s = 0.0;
  double ds = 0.0;
  double dds = 0.0;
  double ddds = 0.0;  // piecewise constant (the spline's R'' is piecewise linear)
};

class cam_motion_programme {
 public:
  // Throws io::option_error naming "phase N" unless every interval is positive and finite, the
  // intervals add up to 2 pi (to 1e-9), rises and returns have finite positive displacements,
  // dwells none, the follower never goes below its lowest position (0) and the programme ends
  // where it began.
  explicit cam_motion_programme(std::vector<cam_phase> phases);
  // Periodic in psi (any real psi).
  programme_value at(double psi) const;
  const std::vector<cam_phase>& phases() const { return phases_; }
  double start(std::size_t phase) const { return start_[phase]; }  // cam angle where it begins
  double max_displacement() const { return max_level_; }

 private:
  std::vector<cam_phase> phases_;
  std::vector<double> start_;  // cam angle at the start of each phase
  std::vector<double> level_;  // displacement at the start of each phase
  double max_level_ = 0.0;
};

}  // namespace kinevo::synthesis
