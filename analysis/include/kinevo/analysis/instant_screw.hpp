// Screw parameters of an instantaneous rigid-body motion from three or more points with their
// velocities (Angeles et al., Diseño cinemático de maquinaria (1984), paper "Automatic
// computation of the screw parameters of rigid-body motions. Part II: infinitesimally-separated
// positions"). The angular velocity is the least-squares solution of
//   pdot_i - v = omega x (p_i - c),  i = 1..n  (3n equations, Householder QR),
// not eq. (8), omega = 2 (1 tr P - P)^-1 vect(Pdot): its Theorem 1 is false, 1 tr P - P can be
// singular for non-collinear points in some frame orientations. Then the rate |omega| and axis
// e = omega / |omega| (19), the axis point closest to the origin by the fixed eq. (14) and by the
// minimum-norm solution of Omega [pdot + Omega (r - p)] = 0 (15b)-(18), and the slide rate
// e . pdot (the fixed eq. (20)).
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/analysis/screw_common.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::analysis {

// moments, conditioning and rigidity_violation (max |pdot_i - v - omega x (p_i - c)| over the
// largest speed) are those of screw_checks.
struct instant_screw_result : screw_checks {
  Eigen::Vector3d centroid;  // c (1)
  Eigen::Vector3d velocity;  // v, the centroid's velocity (1)

  Eigen::Vector3d omega;           // angular velocity
  double rate = 0.0;               // |omega|, rad/s
  Eigen::Vector3d axis;            // e = omega / |omega| (the velocity's direction if no rotation)
  Eigen::Vector3d point;           // r0 by the fixed eq. (14); NaN if no rotation
  Eigen::Vector3d point_min_norm;  // r0 by the minimum-norm solution (15b)-(18)
  double slide_rate = 0.0;         // e . pdot (fixed (20))
  std::vector<double> point_slide_rates;  // e . pdot_i for every point (all equal if rigid)
  std::vector<double> residuals;          // |pdot_i - v - omega x (p_i - c)|

  std::string full_report() const;
  nlohmann::json to_json() const;
  // One row per point: point, slide_rate, residual.
  io::csv_writer points_csv() const;
};

// p[i], pdot[i]: position and velocity of body point i (at least three points). Throws
// std::invalid_argument for fewer than three points or different sizes; collinear points and a
// non-rigid velocity field are a status.
instant_screw_result instant_screw(const std::vector<Eigen::Vector3d>& p,
                                   const std::vector<Eigen::Vector3d>& pdot,
                                   const screw_options& options = {},
                                   std::vector<double> labels = {});

}  // namespace kinevo::analysis
