#include "kinevo/mechanics/model/detail/inertia_shape.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace kinevo::mechanics {

namespace {

// A dimension from its square: a principal moment set that no uniform solid has (a moment
// above the sum of the other two) would give a negative square; it is drawn thin instead.
double edge_from_square(double square, double largest) {
  return std::sqrt(std::max(square, 0.0004 * largest * largest));
}

}  // namespace

io::scene_solid inertia_solid(double mass, const Eigen::Matrix3d& inertia) {
  io::scene_solid s;
  s.shape = io::solid_shape::box;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(0.5 * (inertia + inertia.transpose()));
  const Eigen::Vector3d moment = eig.eigenvalues();  // ascending
  if (!(mass > 0.0) || !(moment.maxCoeff() > 0.0) || eig.info() != Eigen::Success) {
    s.sized_by = "no mass or inertia: sized from the scene";
    return s;
  }
  Eigen::Matrix3d axes = eig.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);
  const double spread = 1e-3 * moment.maxCoeff();
  // The odd moment's axis becomes the shape's z: columns (a, b, odd).
  int odd = -1;
  if (moment[2] - moment[0] <= spread) {
    const double r = std::sqrt(2.5 * moment[1] / mass);
    s.shape = io::solid_shape::sphere;
    s.size = {2 * r, 2 * r, 2 * r};
    s.sized_by = "sphere of equal inertia";
  } else if (moment[1] - moment[0] <= spread) {
    odd = 2;
  } else if (moment[2] - moment[1] <= spread) {
    odd = 0;
  }
  if (odd >= 0) {
    const double axial = moment[odd], transverse = moment[odd == 2 ? 0 : 2];
    const double r = std::sqrt(2.0 * axial / mass);
    const double h2 = (12.0 * transverse - 6.0 * axial) / mass;
    const double h = edge_from_square(h2, std::max(2 * r, std::sqrt(std::abs(h2))));
    s.shape = io::solid_shape::cylinder;
    s.size = {2 * r, 2 * r, h};
    s.sized_by = "cylinder of equal inertia";
    if (odd == 0) {  // the axis is the first eigenvector: turn it to z, keeping a right hand
      axes = (Eigen::Matrix3d() << axes.col(1), axes.col(2), axes.col(0)).finished();
    }
  } else if (s.shape == io::solid_shape::box) {
    const double sum = moment.sum();
    double largest = 0.0;
    for (int k = 0; k < 3; ++k) largest = std::max(largest, 6.0 * (sum - 2 * moment[k]) / mass);
    largest = std::sqrt(largest);
    for (int k = 0; k < 3; ++k) {
      s.size[static_cast<std::size_t>(k)] =
          edge_from_square(6.0 * (sum - 2 * moment[k]) / mass, largest);
    }
    s.sized_by = "box of equal inertia";
  }
  const Eigen::Quaterniond q(axes);
  s.shape_rotation = {q.w(), q.x(), q.y(), q.z()};
  return s;
}

io::scene_solid planar_inertia_solid(double mass, double inertia_z) {
  io::scene_solid s;
  s.shape = io::solid_shape::box;
  if (!(mass > 0.0) || !(inertia_z > 0.0)) {
    s.sized_by = "no mass or inertia: sized from the scene";
    return s;
  }
  // I_z = m (l^2 + (l/8)^2) / 12.
  const double l = std::sqrt(12.0 * inertia_z / mass / (1.0 + 1.0 / 64.0));
  s.size = {l, l / 8, l / 8};
  s.sized_by = "bar of equal inertia about z";
  return s;
}

}  // namespace kinevo::mechanics
