// Rigid motions with known screw parameters, and vector comparisons, for the screw analysers'
// tests.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <random>
#include <vector>

namespace kinevo::test {

inline const double s3 = std::sqrt(3.0);

inline void expect_vector(const Eigen::Vector3d& got, const Eigen::Vector3d& want, double tol,
                          const char* what) {
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(got(i), want(i), tol) << what << " component " << i;
}

// Rodrigues: the rotation by `angle` about the unit `axis`.
inline Eigen::Matrix3d rotation_about(const Eigen::Vector3d& axis, double angle) {
  Eigen::Matrix3d k;
  k << 0.0, -axis.z(), axis.y(), axis.z(), 0.0, -axis.x(), -axis.y(), axis.x(), 0.0;
  return Eigen::Matrix3d::Identity() + std::sin(angle) * k + (1.0 - std::cos(angle)) * k * k;
}

inline Eigen::Vector3d random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
}

inline std::vector<Eigen::Vector3d> random_points(std::mt19937_64& rng, int count) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  std::vector<Eigen::Vector3d> p;
  for (int i = 0; i < count; ++i) p.emplace_back(u(rng), u(rng), u(rng));
  return p;
}

// The point of the line through `a` along unit `e` closest to the origin.
inline Eigen::Vector3d closest_to_origin(const Eigen::Vector3d& a, const Eigen::Vector3d& e) {
  return a - a.dot(e) * e;
}

}  // namespace kinevo::test
