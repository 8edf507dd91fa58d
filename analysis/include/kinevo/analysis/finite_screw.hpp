// Screw parameters of a finite rigid-body displacement from three or more points given in two
// positions (Angeles et al., Diseño cinemático de maquinaria (1984), paper "Automatic
// computation of the screw parameters of rigid-body motions. Part I: finitely-separated
// positions"): centroids and second-moment tensors (2)-(3), principal moments by invariants
// (6)-(10), (29), principal axes by Householder (11) or, for repeated moments, from a body point
// (12)-(13), the rotation (14), its axis and angle (15), the axis point closest to the origin
// (17)-(27) and the slide along the axis (28).
//
// Convention: the angle is in [0, pi] and the axis e is oriented to match (the pair (-e,
// 2 pi - angle) describes the same rotation); the slide u = e . (p' - p) takes e's sign.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/analysis/screw_common.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::analysis {

// moments, conditioning and rigidity_violation (the largest change of a distance between two
// points over the largest distance) are those of screw_checks.
struct finite_screw_result : screw_checks {
  Eigen::Vector3d centroid, centroid_prime;  // c, c' (2)
  Eigen::Matrix3d moment, moment_prime;      // A, B (3a,b)
  Eigen::Vector3d moments_prime;             // I1 <= I2 <= I3 of B (of A: moments)
  std::string frame_method;                  // how the principal frames were found
  Eigen::Matrix3d e_frame, f_frame;          // columns e_i, f_i (body-fixed, same signs)
  Eigen::Matrix3d rotation_e;                // Q in the e-basis, q_ij = e_i . f_j (14a)
  Eigen::Matrix3d rotation;                  // Q_R = E Q E^T = F E^T (14b)

  Eigen::Vector3d axis;   // e, unit
  double angle = 0.0;     // theta in [0, pi], rad
  Eigen::Vector3d point;  // r0, the axis point closest to the origin (NaN if no axis position)
  double slide = 0.0;     // u = e . (p' - p)
  std::vector<double> point_slides;  // e . (p_i' - p_i) for every point (all equal if rigid)

  std::string full_report() const;
  nlohmann::json to_json() const;
  // One row per point: point, slide, distance from the axis before and after.
  io::csv_writer points_csv(const std::vector<Eigen::Vector3d>& first,
                            const std::vector<Eigen::Vector3d>& second) const;
};

// p[i] and p_prime[i] are body point i before and after the displacement (at least three
// points); `labels` (optional) name the points in the report. Throws std::invalid_argument if
// fewer than three points or the sizes differ; a singular or non-rigid set is a status.
finite_screw_result finite_screw(const std::vector<Eigen::Vector3d>& p,
                                 const std::vector<Eigen::Vector3d>& p_prime,
                                 const screw_options& options = {},
                                 std::vector<double> labels = {});

// The closed form of the axis point, Part I eq. (16): r0 = ½ cot(theta/2) e x (p' - p)
// - ½ e x (e x (p' + p)), for one point pair (an independent check of (17)-(27)).
Eigen::Vector3d screw_point_closed_form(const Eigen::Vector3d& axis, double angle,
                                        const Eigen::Vector3d& p, const Eigen::Vector3d& p_prime);

// The normal equations of the axis point for one point pair, Part I eq. (17)/(18a):
// (Q - 1)^T (Q - 1) r = (Q - 1)^T (Q p - p').
struct axis_point_equations {
  Eigen::Matrix3d matrix;
  Eigen::Vector3d rhs;
};
axis_point_equations axis_point_equations_of(const Eigen::Matrix3d& rotation,
                                             const Eigen::Vector3d& p,
                                             const Eigen::Vector3d& p_prime);

}  // namespace kinevo::analysis
