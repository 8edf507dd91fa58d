// Cam geometry shared by the three followers: the pitch curve (or contact curve) in the cam frame
// from a follower point given in the fixed frame, its curvature, the roller offset, and the
// section properties of the closed profile by Green's theorem.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace kinevo::synthesis {

// A follower point P(psi) in the fixed frame (cam centre at the origin) with its derivatives
// with respect to the cam angle psi.
struct follower_point {
  Eigen::Vector2d p = Eigen::Vector2d::Zero();
  Eigen::Vector2d dp = Eigen::Vector2d::Zero();
  Eigen::Vector2d ddp = Eigen::Vector2d::Zero();
};

// The curve P traces in the frame of a cam that has turned by `sense` * psi (sense +1:
// counterclockwise, -1: clockwise): x = Rot(-sense psi) P.
struct cam_curve_point {
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  Eigen::Vector2d outward = Eigen::Vector2d::Zero();  // unit normal pointing away from the cam
  double speed = 0.0;                                 // |dx/dpsi|
  // Radius of curvature, positive where the curve is convex (bulging outward), negative where
  // concave, infinite where straight.
  double radius = 0.0;
};

cam_curve_point cam_curve(const follower_point& f, double psi, int sense);

// Area, centroid and second moments (about the centroid) of a closed polygon, either
// orientation (Green's theorem: area = 1/2 oint x dy - y dx, and the like).
struct section_properties {
  double area = 0.0;
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
  double ixx = 0.0;  // integral of y^2 dA about the centroid
  double iyy = 0.0;  // integral of x^2 dA about the centroid
  double ixy = 0.0;  // integral of x y dA about the centroid
  double i1 = 0.0;   // principal moments, i1 >= i2
  double i2 = 0.0;
  double principal_angle = 0.0;  // from x to the axis of i1 (radians)
};

section_properties polygon_properties(const std::vector<Eigen::Vector2d>& polygon);

}  // namespace kinevo::synthesis
