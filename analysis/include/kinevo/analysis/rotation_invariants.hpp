// The rotation invariants shared by the screw analysers and the spatial chains: vect() of a
// matrix, the cross-product matrix and 1 tr P - P.
#pragma once

#include <Eigen/Dense>

namespace kinevo::analysis {

// vect(M) = 1/2 (M32 - M23, M13 - M31, M21 - M12) (Angeles et al., Diseño cinemático de
// maquinaria, paper on screw parameters, Part I, eq. (15a)).
Eigen::Vector3d vect(const Eigen::Matrix3d& m);
// [w]x, so that skew(w) x = w x x.
Eigen::Matrix3d skew(const Eigen::Vector3d& w);
// 1 tr(P) - P, the matrix of the identity vect(Omega P) = 1/2 (1 tr P - P) omega.
Eigen::Matrix3d invariant_matrix(const Eigen::Matrix3d& p);

}  // namespace kinevo::analysis
