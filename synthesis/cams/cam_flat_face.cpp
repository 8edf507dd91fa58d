#include "kinevo/synthesis/cams/cam_flat_face.hpp"

#include <algorithm>
#include <cmath>

#include "kinevo/io/errors.hpp"

namespace kinevo::synthesis {

void flat_face_options::validate() const {
  if (!std::isfinite(max_eccentricity) || max_eccentricity <= 0.0) {
    throw io::option_error("max_eccentricity", "must be finite and > 0");
  }
  if (!std::isfinite(min_radius_of_curvature) || min_radius_of_curvature < 0.0) {
    throw io::option_error("min_radius_of_curvature", "must be finite and >= 0");
  }
  if (!std::isfinite(base_radius_max) || base_radius_max <= 0.0) {
    throw io::option_error("base_radius_max", "must be finite and > 0");
  }
  if (samples < 36 || samples > max_cam_samples) {
    throw io::option_error("samples", "must be in [36, 1e6]");
  }
}

flat_face_design design_flat_face(const cam_motion_programme& p, const flat_face_options& o) {
  flat_face_design d;
  d.max_abs_ds =
      periodic_maximum([&](double psi) { return std::abs(p.at(psi).ds); }, o.samples).first;
  d.eccentricity_radius = d.max_abs_ds / o.max_eccentricity;
  const double min_sum = -periodic_maximum(
                              [&](double psi) {
                                const auto v = p.at(psi);
                                return -(v.s + v.dds);
                              },
                              o.samples)
                              .first;
  d.curvature_radius = o.min_radius_of_curvature - min_sum;
  d.base_radius = std::max(d.eccentricity_radius, d.curvature_radius);
  return d;
}

cam_analysis analyse_flat_face(const cam_motion_programme& p, double rb,
                               const flat_face_options& o) {
  const auto motion = [rb](const programme_value& v) {
    return follower_point{Eigen::Vector2d(v.ds, rb + v.s), Eigen::Vector2d(v.dds, v.ds),
                          Eigen::Vector2d(v.ddds, v.dds)};
  };
  auto a = sample_cam(
      p, motion, [](const programme_value&) { return 0.0; }, 1, o.samples);
  apply_roller(a, 0.0);
  return a;
}

}  // namespace kinevo::synthesis
