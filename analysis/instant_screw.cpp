#include "kinevo/analysis/instant_screw.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

namespace kinevo::analysis {

namespace {

// omega from the 3n x 3 system -[p_i - c]x omega = pdot_i - v by Householder least squares.
// Its normal matrix is the second-moment tensor A, so it is singular exactly for collinear
// points, whatever the frame's orientation.
Eigen::Vector3d least_squares_omega(const std::vector<Eigen::Vector3d>& p,
                                    const std::vector<Eigen::Vector3d>& pdot,
                                    const Eigen::Vector3d& c, const Eigen::Vector3d& v) {
  const auto n = static_cast<Eigen::Index>(p.size());
  Eigen::MatrixXd g(3 * n, 3);
  Eigen::VectorXd h(3 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    g.middleRows<3>(3 * i) = -skew(p[i] - c);
    h.segment<3>(3 * i) = pdot[i] - v;
  }
  return g.colPivHouseholderQr().solve(h);
}

}  // namespace

instant_screw_result instant_screw(const std::vector<Eigen::Vector3d>& p,
                                   const std::vector<Eigen::Vector3d>& pdot,
                                   const screw_options& options, std::vector<double> labels) {
  options.validate();
  require_point_pairs(p.size(), pdot.size(), "instant screw", "velocity");
  instant_screw_result r;
  r.labels = point_labels(std::move(labels), p.size());
  r.omega = r.axis = r.point = r.point_min_norm = Eigen::Vector3d::Constant(not_a_number);
  r.rate = r.slide_rate = not_a_number;

  const second_moment m = second_moment_of(p);
  r.centroid = m.centroid;
  r.velocity = second_moment_of(pdot).centroid;
  r.moments = principal_moments(m.tensor, p.size() == 3);
  if (r.refuse_collinear(options)) return r;

  r.omega = least_squares_omega(p, pdot, r.centroid, r.velocity);
  double speed = 0.0, size = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Eigen::Vector3d arm = p[i] - r.centroid;
    r.residuals.push_back((pdot[i] - r.velocity - r.omega.cross(arm)).norm());
    worst = std::max(worst, r.residuals.back());
    speed = std::max(speed, pdot[i].norm());
    size = std::max(size, arm.norm());
  }
  r.rigidity_violation = speed > 0.0 ? worst / speed : 0.0;
  if (r.refuse_not_rigid(options, "a velocity departs from v + omega x (p - c) (relative)")) {
    return r;
  }

  r.rate = r.omega.norm();
  if (r.rate * size <= options.rotation_tolerance * speed || speed == 0.0) {
    r.rate = 0.0;
    if (r.velocity.norm() <= options.rotation_tolerance * speed || speed == 0.0) {
      r.status = screw_status::no_motion;
      r.message = "no motion: every velocity is zero";
      return r;
    }
    r.status = screw_status::pure_translation;
    r.message =
        "pure translation (omega = 0): the axis has a direction (the velocity's) but no "
        "position";
    r.axis = r.velocity.normalized();
    r.slide_rate = r.velocity.norm();
  } else {
    r.axis = r.omega / r.rate;  // (19)
    const double w2 = r.omega.squaredNorm();
    // (14), fixed: r0 = p + [omega x pdot - (omega . p) omega] / |omega|^2, for the centroid.
    r.point = r.centroid + (r.omega.cross(r.velocity) - r.omega.dot(r.centroid) * r.omega) / w2;
    // (15b) with the dot restored: Omega [pdot + Omega (r - p)] = 0, i.e.
    // Omega^2 r = Omega^2 p - Omega pdot, rank 2; its minimum-norm solution (16)-(18).
    const Eigen::Matrix3d big_omega = skew(r.omega);
    const Eigen::Matrix3d omega2 = big_omega * big_omega;
    r.point_min_norm =
        minimum_norm_rank2(omega2, omega2 * r.centroid - big_omega * r.velocity).solution;
    r.slide_rate = r.axis.dot(r.velocity);  // (20), fixed: udot = e^T pdot
  }
  for (const auto& v : pdot) r.point_slide_rates.push_back(r.axis.dot(v));
  return r;
}

std::string instant_screw_result::full_report() const {
  std::string s = checks_report("instantaneous screw");
  auto out = std::back_inserter(s);
  fmt::format_to(out, "  centroid c            {}\n", format_vector(centroid));
  fmt::format_to(out, "  centroid velocity v   {}\n", format_vector(velocity));
  if (has_axis()) {
    fmt::format_to(out, "  omega                 {}\n", format_vector(omega));
    fmt::format_to(out, "  rate |omega|          {:.10g} rad/s\n", rate);
    fmt::format_to(out, "  axis e                {}\n", format_vector(axis));
    fmt::format_to(out, "  point r0 (14)         {}\n", format_vector(point));
    fmt::format_to(out, "  point r0 (min. norm)  {}\n", format_vector(point_min_norm));
    fmt::format_to(out, "  slide rate e.pdot     {:.10g}\n", slide_rate);
  }
  return s;
}

nlohmann::json instant_screw_result::to_json() const {
  nlohmann::json j = checks_json();
  j.update({{"centroid", json_vector(centroid)},
            {"velocity", json_vector(velocity)},
            {"omega", json_vector(omega)},
            {"rate", json_number(rate)},
            {"axis", json_vector(axis)},
            {"point", json_vector(point)},
            {"point_min_norm", json_vector(point_min_norm)},
            {"slide_rate", json_number(slide_rate)},
            {"point_slide_rates", point_slide_rates}});
  return j;
}

io::csv_writer instant_screw_result::points_csv() const {
  io::csv_writer w({"point", "slide_rate", "residual"});
  for (std::size_t i = 0; i < point_slide_rates.size() && i < residuals.size(); ++i) {
    w.add_row({labels[i], point_slide_rates[i], residuals[i]});
  }
  return w;
}

}  // namespace kinevo::analysis
