#include "kinevo/analysis/dh_chain.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "kinevo/core/numbers.hpp"

namespace kinevo::analysis {

dh_link dh_row(double a, double b, double alpha_deg, pair_kind pair, double theta_deg) {
  return {a, b, alpha_deg * degree, theta_deg * degree, pair};
}

Eigen::Matrix3d dh_rotation(double theta, double alpha) {
  const double c = std::cos(theta), s = std::sin(theta);
  const double ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix3d q;
  q << c, -s * ca, s * sa, s, c * ca, -c * sa, 0.0, sa, ca;
  return q;
}

Eigen::Vector3d dh_offset(double a, double b, double theta) {
  return {a * std::cos(theta), a * std::sin(theta), b};
}

double rotation_angle(const Eigen::Matrix3d& p) {
  // atan2 of |vect P| = sin(phi) and (tr P - 1)/2 = cos(phi): accurate at every angle.
  return std::atan2(vect(p).norm(), 0.5 * (p.trace() - 1.0));
}

chain_pose evaluate_chain(const std::vector<dh_link>& links, const Eigen::VectorXd& q) {
  const std::size_t n = links.size();
  chain_pose pose;
  pose.partial.resize(n + 1);
  pose.axis.resize(n);
  pose.to_end.resize(n + 1);
  std::vector<Eigen::Matrix3d> rotation(n);
  std::vector<Eigen::Vector3d> offset(n);
  pose.partial[0].setIdentity();
  for (std::size_t i = 0; i < n; ++i) {
    const dh_link& l = links[i];
    const bool revolute = l.pair == pair_kind::revolute;
    const double theta = revolute ? q[static_cast<Eigen::Index>(i)] : l.theta;
    const double b = revolute ? l.b : q[static_cast<Eigen::Index>(i)];
    rotation[i] = dh_rotation(theta, l.alpha);
    offset[i] = dh_offset(l.a, b, theta);
    pose.axis[i] = pose.partial[i].col(2);
    pose.partial[i + 1] = pose.partial[i] * rotation[i];
  }
  pose.product = pose.partial[n];
  // Horner (RSRC paper eq. (11d)): x_n = a_n, x_k = a_k + Q_k x_{k+1}; r_k = Q_1..Q_{k-1} x_k.
  Eigen::Vector3d x = Eigen::Vector3d::Zero();
  pose.to_end[n].setZero();
  for (std::size_t k = n; k-- > 0;) {
    x = offset[k] + rotation[k] * x;
    pose.to_end[k] = pose.partial[k] * x;
  }
  pose.end = x;
  return pose;
}

Eigen::Vector3d point_after(const chain_pose& pose, std::size_t m) {
  return pose.end - pose.to_end[m];
}

Eigen::MatrixXd axis_jacobian(const std::vector<dh_link>& links, const chain_pose& pose) {
  Eigen::MatrixXd j = Eigen::MatrixXd::Zero(3, static_cast<Eigen::Index>(links.size()));
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (links[i].pair == pair_kind::revolute) j.col(static_cast<Eigen::Index>(i)) = pose.axis[i];
  }
  return j;
}

namespace {

// Column i of the velocity of the point O_{m+1}: u_i x (point - O_i) or u_i.
Eigen::Vector3d point_column(const std::vector<dh_link>& links, const chain_pose& pose,
                             std::size_t i, std::size_t m) {
  if (i >= m) return Eigen::Vector3d::Zero();
  if (links[i].pair == pair_kind::prismatic) return pose.axis[i];
  return pose.axis[i].cross(pose.to_end[i] - pose.to_end[m]);
}

}  // namespace

Eigen::MatrixXd point_jacobian(const std::vector<dh_link>& links, const chain_pose& pose,
                               std::size_t m) {
  Eigen::MatrixXd j(3, static_cast<Eigen::Index>(links.size()));
  for (std::size_t i = 0; i < links.size(); ++i) {
    j.col(static_cast<Eigen::Index>(i)) = point_column(links, pose, i, m);
  }
  return j;
}

Eigen::MatrixXd invariant_jacobian(const std::vector<dh_link>& links, const chain_pose& pose) {
  Eigen::MatrixXd j(6, static_cast<Eigen::Index>(links.size()));
  j.topRows(3) = invariant_matrix(pose.product) * axis_jacobian(links, pose);
  j.bottomRows(3) = point_jacobian(links, pose, links.size());
  return j;
}

velocity_products acceleration_terms(const std::vector<dh_link>& links, const chain_pose& pose,
                                     const Eigen::VectorXd& qdot, std::size_t m) {
  const std::size_t n = links.size();
  std::vector<Eigen::Vector3d> column(n);
  for (std::size_t i = 0; i < n; ++i) column[i] = point_column(links, pose, i, m);
  // suffix[i] = sum_{j >= i} qdot_j c_j: the velocity of the point relative to O_i's frame.
  std::vector<Eigen::Vector3d> suffix(n + 1, Eigen::Vector3d::Zero());
  for (std::size_t i = n; i-- > 0;) {
    suffix[i] = suffix[i + 1] + qdot[static_cast<Eigen::Index>(i)] * column[i];
  }
  velocity_products t{Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero()};
  Eigen::Vector3d omega_before = Eigen::Vector3d::Zero();  // sum_{j<i} over R pairs of qdot_j u_j
  for (std::size_t i = 0; i < n; ++i) {
    const double qd = qdot[static_cast<Eigen::Index>(i)];
    const Eigen::Vector3d& u = pose.axis[i];
    if (links[i].pair == pair_kind::revolute) {
      t.angular += qd * omega_before.cross(u);
      // d/dt (u x r) = omega_<i x (u x r) + u x (velocity of the point relative to O_i).
      if (i < m) t.linear += qd * (omega_before.cross(column[i]) + u.cross(suffix[i]));
      omega_before += qd * u;
    } else if (i < m) {
      t.linear += qd * omega_before.cross(u);
    }
  }
  return t;
}

std::vector<std::string> joint_names(const std::vector<dh_link>& links) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < links.size(); ++i) {
    names.push_back(
        fmt::format("{}{}", links[i].pair == pair_kind::revolute ? "theta" : "b", i + 1));
  }
  return names;
}

std::vector<bool> joint_is_angle(const std::vector<dh_link>& links) {
  std::vector<bool> angle;
  for (const auto& l : links) angle.push_back(l.pair == pair_kind::revolute);
  return angle;
}

}  // namespace kinevo::analysis
