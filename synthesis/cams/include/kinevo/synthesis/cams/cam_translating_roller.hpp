// Translating roller follower: Angeles et al., Diseño cinemático de maquinaria, paper "Optimal
// synthesis of translating-follower cam mechanisms". Follower path x = e (offset), s = c + sigma
// (4); the cam turns counterclockwise; pitch point (e, s) in the fixed frame.
#pragma once

#include "kinevo/synthesis/cams/cam_analysis.hpp"

namespace kinevo::synthesis {

struct translating_roller_options {
  double max_pressure_angle = 0.5235987755982988;  // mu_M, radians (30 deg)
  double roller_fraction = 0.5;                    // f of (22): d = f (rho_k)min
  double min_roller_radius = 0.0;                  // a design's d must be at least this
  double c_min = 1e-3, c_max = 1e3;                // the search box (c > 0: s > 0 throughout)
  double e_min = -1e3, e_max = 1e3;
  int samples = 3600;  // per turn, for the analysis and the extremes
  // Throws io::option_error naming the field.
  void validate() const;
};

struct translating_roller_design {
  double c = 0.0;  // lowest follower position (4)
  double e = 0.0;  // offset of the follower path
  double base_radius() const;
};

// Eq. (8) in signed form: tan mu = (s' - e) / s.
double translating_pressure_angle(const programme_value& sigma, const translating_roller_design& d);

// The source's method: the critical point psi0 of the rise, root of (17) fixed, f = sigma'' -
// tan(mu_M) sigma' (printed +), then c and e by (18a-c). Constrains the rise only.
struct translating_source_design {
  double psi0 = 0.0;
  programme_value sigma0;
  translating_roller_design design;
};
translating_source_design translating_roller_source_design(const cam_motion_programme& programme,
                                                           const translating_roller_options& o);

// Samples the design; roller d = f (rho_k)min over the convex part (22), at least
// min_roller_radius.
cam_analysis analyse_translating_roller(const cam_motion_programme& programme,
                                        const translating_roller_design& d,
                                        const translating_roller_options& o);

// The smallest base radius sqrt(c^2 + e^2) in the box with |mu| <= mu_M over the whole turn and,
// when min_roller_radius > 0, f (rho_k)min >= min_roller_radius. |s' - e| <= tan(mu_M) (c +
// sigma) for every psi is the wedge a - t c <= e <= b + t c with a = max(sigma' - t sigma), b =
// min(sigma' + t sigma) (their stationary points are the roots of (17) and of its mirror on the
// return), so the pressure-angle optimum is the point of wedge and box nearest the origin; the
// curvature bound, if it binds, is met by bisection on the base radius over that region.
struct translating_roller_optimum {
  bool found = false;
  translating_roller_design design;
  double wedge_a = 0.0, wedge_b = 0.0;  // a and b above
  bool curvature_active = false;
};
translating_roller_optimum optimise_translating_roller(const cam_motion_programme& programme,
                                                       const translating_roller_options& o);

}  // namespace kinevo::synthesis
