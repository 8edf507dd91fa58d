#include "kinevo/analysis/screw_common.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "kinevo/io/option_error.hpp"

namespace kinevo::analysis {

void screw_options::validate() const {
  const io::real_range unit_open{0.0, 1.0, true, true};
  io::require_real("rigidity_tolerance", rigidity_tolerance, unit_open);
  io::require_real("collinear_tolerance", collinear_tolerance, unit_open);
  io::require_real("rotation_tolerance", rotation_tolerance, unit_open);
}

core::summary screw_checks::summary() const {
  if (status != screw_status::collinear && status != screw_status::not_rigid) return {};
  return core::summary::ended(core::termination::failed, to_string(status), message);
}

const char* to_string(screw_status s) {
  switch (s) {
    case screw_status::ok:
      return "ok";
    case screw_status::pure_translation:
      return "pure_translation";
    case screw_status::no_motion:
      return "no_motion";
    case screw_status::collinear:
      return "collinear";
    case screw_status::not_rigid:
      return "not_rigid";
  }
  return "unknown";
}

bool screw_checks::refuse_collinear(const screw_options& options) {
  conditioning = moments(1) / moments(0);
  if (moments(0) > options.collinear_tolerance * moments(1)) return false;
  status = screw_status::collinear;
  message = fmt::format(
      "the points are collinear (I1/I2 = {:.3g}): the rotation about their line is undetermined",
      moments(0) / moments(1));
  return true;
}

bool screw_checks::refuse_not_rigid(const screw_options& options, const std::string& what) {
  if (!(rigidity_violation > options.rigidity_tolerance)) return false;
  status = screw_status::not_rigid;
  message = fmt::format("not a rigid-body motion: {} by {:.3g} (tolerance {:.3g})", what,
                        rigidity_violation, options.rigidity_tolerance);
  return true;
}

std::string screw_checks::checks_report(const std::string& kind) const {
  std::string s = fmt::format("{} of {} points: {}\n", kind, labels.size(), to_string(status));
  if (!message.empty()) s += fmt::format("  {}\n", message);
  s += fmt::format("  I1, I2, I3            {}\n", format_vector(moments));
  s += fmt::format("  conditioning I2/I1    {:.6g}\n", conditioning);
  s += fmt::format("  rigidity violation    {:.3g}\n", rigidity_violation);
  return s;
}

nlohmann::json screw_checks::checks_json() const {
  nlohmann::json j{{"status", to_string(status)},
                   {"points", labels.size()},
                   {"moments", json_vector(moments)},
                   {"conditioning", json_number(conditioning)},
                   {"rigidity_violation", json_number(rigidity_violation)}};
  if (!message.empty()) j["message"] = message;
  return j;
}

void require_point_pairs(std::size_t points, std::size_t seconds, const std::string& what,
                         const std::string& second) {
  if (points >= 3 && points == seconds) return;
  throw io::option_error(
      "points", fmt::format("must be three or more, each with its {} (got {} and {}; {})", second,
                            points, seconds, what));
}

second_moment second_moment_of(const std::vector<Eigen::Vector3d>& points) {
  second_moment s{Eigen::Vector3d::Zero(), Eigen::Matrix3d::Zero()};
  if (points.empty()) return s;
  for (const auto& p : points) s.centroid += p;
  s.centroid /= static_cast<double>(points.size());
  for (const auto& point : points) {
    const Eigen::Vector3d p = point - s.centroid;
    s.tensor += p.squaredNorm() * Eigen::Matrix3d::Identity() - p * p.transpose();
  }
  return s;
}

Eigen::Vector3d principal_moments(const Eigen::Matrix3d& a, bool planar) {
  const double tr = a.trace();
  if (planar) {
    // Part I, eqs. (6)-(10) and (29) (fixed): the larger root first, the smaller from the product
    // of the roots, (tr² A - 2 tr A²) / 4, so that it does not lose digits by cancellation.
    const double tr2 = (a * a).trace();
    const double root = std::sqrt(std::max(0.0, 8.0 * tr2 - 3.0 * tr * tr));
    const double i2 = (tr + root) / 4.0;
    const double i1 = i2 > 0.0 ? (tr * tr - 2.0 * tr2) / (4.0 * i2) : 0.0;
    return {i1, i2, tr / 2.0};
  }
  const double q = tr / 3.0;
  const Eigen::Matrix3d d = a - q * Eigen::Matrix3d::Identity();
  const double p = std::sqrt(d.squaredNorm() / 6.0);
  if (p == 0.0) return {q, q, q};
  const double r = std::clamp((d / p).determinant() / 2.0, -1.0, 1.0);
  const double phi = std::acos(r) / 3.0;
  const double largest = q + 2.0 * p * std::cos(phi);
  const double smallest = q + 2.0 * p * std::cos(phi + 2.0 * std::numbers::pi / 3.0);
  return {smallest, 3.0 * q - largest - smallest, largest};
}

namespace {

// The rows of the Householder row echelon H^T M in M's own column order (the column-pivoting QR
// gives R with permuted columns: M P = H R, so H^T M = R P^T).
struct row_echelon {
  Eigen::Matrix3d rows;
  Eigen::Matrix3d h;  // H, orthogonal
};

row_echelon householder_row_echelon(const Eigen::Matrix3d& m) {
  const Eigen::ColPivHouseholderQR<Eigen::Matrix3d> qr(m);
  const Eigen::Matrix3d r = qr.matrixR().triangularView<Eigen::Upper>();
  return {r * qr.colsPermutation().transpose(), qr.householderQ()};
}

}  // namespace

Eigen::Vector3d null_vector_rank2(const Eigen::Matrix3d& m) {
  const Eigen::Matrix3d rows = householder_row_echelon(m).rows;
  const Eigen::Vector3d n = rows.row(0).transpose().cross(rows.row(1).transpose());
  return n / n.norm();
}

minimum_norm_solve minimum_norm_rank2(const Eigen::Matrix3d& m, const Eigen::Vector3d& b) {
  const row_echelon echelon = householder_row_echelon(m);
  minimum_norm_solve s;
  s.reduced_matrix = echelon.rows.topRows<2>();
  s.reduced_rhs = (echelon.h.transpose() * b).head<2>();
  // A'^T = H2 [U; 0]: A' r = b' becomes U^T y1 = b' with y = H2^T r; y2 = 0 is the minimum norm.
  const Eigen::HouseholderQR<Eigen::Matrix<double, 3, 2>> qr(s.reduced_matrix.transpose());
  const Eigen::Matrix2d u = qr.matrixQR().topRows<2>().triangularView<Eigen::Upper>();
  s.y.head<2>() = u.transpose().triangularView<Eigen::Lower>().solve(s.reduced_rhs);
  s.y.z() = 0.0;
  const Eigen::Matrix3d h2 = qr.householderQ();
  s.solution = h2 * s.y;
  return s;
}

std::vector<double> point_labels(std::vector<double> labels, std::size_t n) {
  if (labels.size() == n) return labels;
  labels.clear();
  for (std::size_t i = 0; i < n; ++i) labels.push_back(static_cast<double>(i + 1));
  return labels;
}

std::string format_vector(const Eigen::Vector3d& v) {
  return fmt::format("({:.10g}, {:.10g}, {:.10g})", v.x(), v.y(), v.z());
}

std::string format_matrix(const Eigen::Matrix3d& m, const std::string& indent) {
  std::string s;
  for (int i = 0; i < 3; ++i) {
    s += fmt::format("{}[{:>14.10g} {:>14.10g} {:>14.10g}]\n", indent, m(i, 0), m(i, 1), m(i, 2));
  }
  return s;
}

nlohmann::json json_vector(const Eigen::Vector3d& v) {
  nlohmann::json j = nlohmann::json::array();
  for (int i = 0; i < 3; ++i) j.push_back(json_number(v(i)));
  return j;
}

nlohmann::json json_matrix(const Eigen::Matrix3d& m) {
  nlohmann::json j = nlohmann::json::array();
  for (int i = 0; i < 3; ++i) j.push_back(json_vector(m.row(i).transpose()));
  return j;
}

}  // namespace kinevo::analysis
