// Independent Euler-parameter algebra for the spatial tests (computed here with Eigen, not with
// mechanics/euler_parameters, so that an error there cannot cancel out), and numbers written
// into model texts to round-off.
#pragma once

#include <Eigen/Core>
#include <cstdio>
#include <string>

namespace kinevo::mechanics::spatial_test {

using mat34 = Eigen::Matrix<double, 3, 4>;

// E(p) = [-e, e~ + e0 I] and G(p) = [-e, -e~ + e0 I] (Haug, Computer-Aided Kinematics and
// Dynamics of Mechanical Systems, section 6.3); A = E G^T.
inline mat34 e_matrix(const Eigen::Vector4d& p) {
  mat34 m;
  m << -p[1], p[0], -p[3], p[2],  //
      -p[2], p[3], p[0], -p[1],   //
      -p[3], -p[2], p[1], p[0];
  return m;
}
inline mat34 g_matrix(const Eigen::Vector4d& p) {
  mat34 m;
  m << -p[1], p[0], p[3], -p[2],  //
      -p[2], -p[3], p[0], p[1],   //
      -p[3], p[2], -p[1], p[0];
  return m;
}

inline std::string num(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}
inline std::string vec(const Eigen::VectorXd& v) {
  std::string s = "[";
  for (Eigen::Index k = 0; k < v.size(); ++k) s += (k == 0 ? "" : ", ") + num(v[k]);
  return s + "]";
}

}  // namespace kinevo::mechanics::spatial_test
