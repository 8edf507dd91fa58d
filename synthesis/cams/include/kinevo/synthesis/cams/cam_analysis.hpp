// Sampling a cam design over one turn: displacement programme, pressure angle, pitch (or contact)
// curve and its radius of curvature, then the working profile offset by the roller and its
// section properties. The three followers supply the follower point and the pressure angle.
#pragma once

#include <functional>
#include <vector>

#include "kinevo/synthesis/cams/cam_motion_programme.hpp"
#include "kinevo/synthesis/cams/cam_profile.hpp"

namespace kinevo::synthesis {

struct cam_sample {
  double psi = 0.0;
  programme_value sigma;
  double pressure_angle = 0.0;  // radians, signed
  double radius = 0.0;          // pitch-curve radius of curvature (convex > 0)
  Eigen::Vector2d pitch = Eigen::Vector2d::Zero();
  Eigen::Vector2d outward = Eigen::Vector2d::Zero();
  Eigen::Vector2d profile = Eigen::Vector2d::Zero();
};

struct cam_analysis {
  std::vector<cam_sample> samples;                    // psi = 2 pi i / n, i = 0..n-1
  double max_pressure_angle = 0.0, psi_at_max = 0.0;  // signed extremes and where
  double min_pressure_angle = 0.0, psi_at_min = 0.0;
  double min_convex_radius = 0.0, psi_at_min_radius = 0.0;  // infinity when nowhere convex
  double min_concave_radius = 0.0;                          // |radius|, infinity when none
  double roller_radius = 0.0;
  bool undercut = false;  // roller radius >= the smallest convex pitch radius
  section_properties section;
  double max_abs_pressure_angle() const;
};

using follower_motion = std::function<follower_point(const programme_value&)>;
using pressure_angle_law = std::function<double(const programme_value&)>;

// n samples of one turn, the cam turning by sense * psi; the profile equals the pitch curve
// until apply_roller.
cam_analysis sample_cam(const cam_motion_programme& programme, const follower_motion& motion,
                        const pressure_angle_law& pressure, int sense, int n);
// The working profile r_c = r_k - d n (translating paper, eq. (20)) and its section properties.
void apply_roller(cam_analysis& a, double roller_radius);

// Golden-section search for a minimum of f on [lo, hi]: {x, f(x)}.
std::pair<double, double> golden_section_minimum(const std::function<double(double)>& f, double lo,
                                                 double hi, int iterations);

// Cam angles per turn of the analysis, at most: 10^6 samples take about 1.5 s of CPU and
// 240 MB (measured: 10^7 took 14 s of CPU and 2.4 GB, a run of minutes on a loaded machine),
// far finer than a cam is made (the examples use 3,600: 0.1 deg).
constexpr int max_cam_samples = 1'000'000;

// The checks the roller followers share (io::option_error naming the field): the pressure-angle
// bound in (0, 90) deg, the roller fraction in (0, 1), samples in [36, max_cam_samples].
void validate_roller_bounds(double max_pressure_angle, double roller_fraction, int samples);

// The largest value of f near psi, where a sampling with step h found `sampled`: golden section
// on [psi - h, psi + h]; returns {value, psi}.
std::pair<double, double> refine_maximum(const std::function<double(double)>& f, double psi,
                                         double h, double sampled);

// The largest value of f on [0, 2 pi): the best of n samples refined by golden-section search
// on the neighbouring intervals; returns {value, psi}.
std::pair<double, double> periodic_maximum(const std::function<double(double)>& f, int n);

}  // namespace kinevo::synthesis
