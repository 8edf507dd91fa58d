// Open serial chains of revolute (R) and prismatic (P) pairs in Denavit-Hartenberg form, as in
// Angeles et al., Diseño cinemático de maquinaria, papers "Subprogramas para el análisis de
// cadenas cinemáticas con 7 eslabones ..." and "Modelización de cadenas cinemáticas con pares de
// rotación y prismáticos": Q_i = Rz(theta_i) Rx(alpha_i), a_i = (a_i cos theta_i, a_i sin theta_i,
// b_i) in frame i (the RSRC paper's eq. (1) with the sign fix of row 2), end point by Horner,
// and the Jacobians of the invariant formulation (RSRC paper eq. (11a)-(11d), (12a,b)).
#pragma once

#include <Eigen/Dense>
#include <cstddef>
#include <string>
#include <vector>

#include "kinevo/analysis/rotation_invariants.hpp"

namespace kinevo::analysis {

enum class pair_kind { revolute, prismatic };

// One link. The joint variable is theta for a revolute pair and b for a prismatic pair; the other
// of the two is the fixed value given here (b of an R pair, theta of a P pair).
struct dh_link {
  double a = 0.0;
  double b = 0.0;
  double alpha = 0.0;  // rad
  double theta = 0.0;  // rad; used only by a prismatic pair
  pair_kind pair = pair_kind::revolute;
};

// A link from a table row in degrees: alpha, and theta of a P pair.
dh_link dh_row(double a, double b, double alpha_deg, pair_kind pair = pair_kind::revolute,
               double theta_deg = 0.0);

// Joint names theta_i / b_i (1-based) and which are angles.
std::vector<std::string> joint_names(const std::vector<dh_link>& links);
std::vector<bool> joint_is_angle(const std::vector<dh_link>& links);

// Q = Rz(theta) Rx(alpha).
Eigen::Matrix3d dh_rotation(double theta, double alpha);
// a = (a cos theta, a sin theta, b), in frame i.
Eigen::Vector3d dh_offset(double a, double b, double theta);

// Rotation angle of a proper orthogonal matrix, in [0, pi].
double rotation_angle(const Eigen::Matrix3d& p);

// An open chain evaluated at joint values q (one per link): the partial products, the frame
// origins and the Horner end point.
struct chain_pose {
  std::vector<Eigen::Matrix3d> partial;  // partial[i] = Q_1 ... Q_i (partial[0] = 1), n + 1 of them
  std::vector<Eigen::Vector3d> axis;     // u_i = Q_1 ... Q_{i-1} e_z, in frame 1
  std::vector<Eigen::Vector3d> to_end;   // r_i = Q_1 ... Q_{i-1} x_i: from O_i to the end point
  Eigen::Matrix3d product;               // P = Q_1 ... Q_n
  Eigen::Vector3d end;                   // x_1 = a_1 + Q_1 x_2 (Horner), in frame 1
};

chain_pose evaluate_chain(const std::vector<dh_link>& links, const Eigen::VectorXd& q);

// Frame origin O_{m+1} (the end point of the first m links) in frame 1: x_1 - r_{m+1}.
Eigen::Vector3d point_after(const chain_pose& pose, std::size_t m);

// 3 x n: rotation rows of the twist Jacobian, u_i for an R pair, 0 for a P pair.
Eigen::MatrixXd axis_jacobian(const std::vector<dh_link>& links, const chain_pose& pose);
// 3 x n: velocity of the end point of the first m links (O_{m+1}): u_i x (r_i - r_{m+1}) for an
// R pair (eq. (11c)), u_i for a P pair (eq. (12b)), 0 for i > m.
Eigen::MatrixXd point_jacobian(const std::vector<dh_link>& links, const chain_pose& pose,
                               std::size_t m);
// 6 x n: invariant Jacobian of eq. (11a)/(11c): rows (1 tr P - P) u_i over the point rows.
Eigen::MatrixXd invariant_jacobian(const std::vector<dh_link>& links, const chain_pose& pose);

// The velocity-product terms of the accelerations (7R paper eq. (19)-(20), generalised to P
// pairs): angular sum_{i<j} qdot_i qdot_j u_i x u_j over R pairs, and the end point's (of the
// first m links) sum_{i,j} qdot_i qdot_j u_min x (u_max x r_max) with the Coriolis terms of P
// pairs, so that  J qddot = [alpha - angular; a - linear].
struct velocity_products {
  Eigen::Vector3d angular;
  Eigen::Vector3d linear;
};
velocity_products acceleration_terms(const std::vector<dh_link>& links, const chain_pose& pose,
                                     const Eigen::VectorXd& qdot, std::size_t m);

}  // namespace kinevo::analysis
