// What the finite and the instantaneous screw analysers share: their options and status, the
// vect() of a matrix and the cross-product matrix, the second-moment tensor of a point set and
// the minimum-norm solution of the rank-2 systems that locate the screw axis.
// Source: Angeles et al., Diseño cinemático de maquinaria (1984), papers "Automatic computation
// of the screw parameters of rigid-body motions", Part I (finitely separated positions) and
// Part II (infinitesimally separated positions).
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/analysis/rotation_invariants.hpp"
#include "kinevo/core/numbers.hpp"
#include "kinevo/core/outcome.hpp"
#include "kinevo/io/json_number.hpp"

namespace kinevo::analysis {

struct screw_options {
  // Largest allowed departure from a rigid motion, relative to the size of the data: finite,
  // the change of a distance between two points over the largest distance; instantaneous, the
  // largest residual |pdot_i - v - omega x (p_i - c)| over the largest speed.
  double rigidity_tolerance = 1e-6;
  // Points whose second-moment tensor has I1 / I2 below this are treated as collinear (the
  // rotation about their line is then undetermined).
  double collinear_tolerance = 1e-12;
  // A rotation angle (rad) or a rate relative to speed / size below this is no rotation: a pure
  // translation, whose axis has a direction but no position.
  double rotation_tolerance = 1e-12;

  // Throws io::option_error naming the field: each tolerance finite and in (0, 1).
  void validate() const;
};

enum class screw_status {
  ok,                // a screw: axis, point, angle (rate) and slide (rate)
  pure_translation,  // no rotation: the axis direction is the translation's, no point
  no_motion,         // neither rotation nor translation: nothing defined
  collinear,         // singular: the points are (nearly) on a line
  not_rigid,         // the data are not a rigid-body motion within the tolerance
};

const char* to_string(screw_status s);

// What both analysers report before their screw parameters: the status, the points' geometry
// (principal moments, conditioning) and how far the data are from a rigid motion.
struct screw_checks {
  screw_status status = screw_status::ok;
  std::string message;  // why the status is not ok; empty when it is
  std::vector<double> labels;
  Eigen::Vector3d moments = Eigen::Vector3d::Zero();  // I1 <= I2 <= I3 of the points' tensor
  double conditioning = 0.0;                          // I2 / I1: large when nearly collinear
  double rigidity_violation = 0.0;                    // relative departure from a rigid motion

  bool ok() const { return status == screw_status::ok; }
  // failed (reason the status) when the points are collinear or not a rigid motion: no screw
  // can be had from them; every other status, a pure translation or no motion included, is an
  // answer and ok.
  core::summary summary() const;
  // A screw or a pure translation: the axis (direction) is defined.
  bool has_axis() const {
    return status == screw_status::ok || status == screw_status::pure_translation;
  }
  // Sets the conditioning; with I1 <= collinear_tolerance I2 sets status collinear and its
  // message and returns true.
  bool refuse_collinear(const screw_options& options);
  // With rigidity_violation above the tolerance sets status not_rigid and a message saying
  // `what` departs by how much, and returns true.
  bool refuse_not_rigid(const screw_options& options, const std::string& what);
  // "<kind> of n points: status" and the message, then the moments, conditioning, rigidity.
  std::string checks_report(const std::string& kind) const;
  nlohmann::json checks_json() const;
};

// Throws std::invalid_argument naming `what` unless there are at least three points, each with
// its `second` (second position or velocity).
void require_point_pairs(std::size_t points, std::size_t seconds, const std::string& what,
                         const std::string& second);

// The centroid of the points (Part I, eq. (2)) and the second-moment tensor about it,
// A = sum(|p_i|^2 1 - p_i p_i^T) with p_i measured from the centroid (Part I, eq. (3a,b)).
struct second_moment {
  Eigen::Vector3d centroid;
  Eigen::Matrix3d tensor;
};
second_moment second_moment_of(const std::vector<Eigen::Vector3d>& points);

// The principal moments I1 <= I2 <= I3 of a second-moment tensor by closed forms in its
// invariants. Planar point sets (three points always are): I3 = I1 + I2 = ½ tr A,
// I2 = [tr A + sqrt(8 tr A² - 3 tr² A)] / 4 and, in the stable order of Part I eq. (29) with the
// fix (the factor 4 of the product of the roots), I1 = (tr² A - 2 tr A²) / (4 I2). Otherwise the
// trigonometric solution of the characteristic cubic in tr A, tr (A - ⅓ tr A 1)² and det.
Eigen::Vector3d principal_moments(const Eigen::Matrix3d& a, bool planar);

// A rank-2 system M r = b reduced by a Householder row echelon to its two independent rows
// A' r = b' (Part I, eqs. (19)-(20)), and its minimum-norm solution by a second Householder
// factorisation of A'^T (Part I, eqs. (22)-(27)): y = H^T r, U^T y1 = b', y2 = 0, r = H y.
struct minimum_norm_solve {
  Eigen::Matrix<double, 2, 3> reduced_matrix;  // A'
  Eigen::Vector2d reduced_rhs;                 // b'
  Eigen::Vector3d y;                           // y0 = H^T r (third component 0)
  Eigen::Vector3d solution;                    // r0, orthogonal to M's null space
};
minimum_norm_solve minimum_norm_rank2(const Eigen::Matrix3d& m, const Eigen::Vector3d& b);

// Unit null vector of a rank-2 3x3 matrix: the cross product of the two independent rows of its
// Householder row echelon (Part I, eqs. (11a-e)), with Eigen's column-pivoting QR.
Eigen::Vector3d null_vector_rank2(const Eigen::Matrix3d& m);

// The labels as given when there is one per point, else 1..n.
std::vector<double> point_labels(std::vector<double> labels, std::size_t n);

// Reporting helpers: "(x, y, z)" with 10 significant digits, and JSON arrays (NaN as null).
std::string format_vector(const Eigen::Vector3d& v);
std::string format_matrix(const Eigen::Matrix3d& m, const std::string& indent);
using io::json_number;
nlohmann::json json_vector(const Eigen::Vector3d& v);
nlohmann::json json_matrix(const Eigen::Matrix3d& m);

}  // namespace kinevo::analysis
