#include "kinevo/analysis/rotation_invariants.hpp"

namespace kinevo::analysis {

Eigen::Vector3d vect(const Eigen::Matrix3d& m) {
  return 0.5 * Eigen::Vector3d(m(2, 1) - m(1, 2), m(0, 2) - m(2, 0), m(1, 0) - m(0, 1));
}

Eigen::Matrix3d skew(const Eigen::Vector3d& w) {
  Eigen::Matrix3d s;
  s << 0.0, -w.z(), w.y(), w.z(), 0.0, -w.x(), -w.y(), w.x(), 0.0;
  return s;
}

Eigen::Matrix3d invariant_matrix(const Eigen::Matrix3d& p) {
  return p.trace() * Eigen::Matrix3d::Identity() - p;
}

}  // namespace kinevo::analysis
