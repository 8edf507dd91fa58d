// mechanics::inertia_solid: the solid drawn for a body has the body's mass and inertia. Checked
// by the forward formulas of uniform solids (box, cylinder, sphere): shape -> inertia -> shape.
#include "kinevo/mechanics/model/detail/inertia_shape.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

namespace {

using kinevo::io::solid_shape;
using kinevo::mechanics::inertia_solid;
using kinevo::mechanics::planar_inertia_solid;

TEST(InertiaShape, ABoxOfGivenEdgesComesBack) {
  const double m = 6.0, a = 1.0, b = 2.0, c = 3.0;
  const Eigen::Vector3d I(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                          m * (a * a + b * b) / 12);
  const auto s = inertia_solid(m, I.asDiagonal());
  EXPECT_EQ(s.shape, solid_shape::box);
  // The edges come back, in the order of the principal axes the solver sorted them by; the
  // shape's rotation turns them onto the body's x, y, z.
  const Eigen::Quaterniond q(s.shape_rotation[0], s.shape_rotation[1], s.shape_rotation[2],
                             s.shape_rotation[3]);
  const Eigen::Matrix3d R = q.toRotationMatrix();
  for (int k = 0; k < 3; ++k) {
    const Eigen::Vector3d axis = R.col(k).cwiseAbs();
    Eigen::Index along = 0;
    axis.maxCoeff(&along);
    EXPECT_NEAR(s.size[static_cast<std::size_t>(k)], Eigen::Vector3d(a, b, c)[along], 1e-12);
  }
}

TEST(InertiaShape, TheFlywheelIsItsDiscAndTheRodItsRod) {
  // examples/spherical_pendulum_flywheel.toml: disc R = 0.15, t = 0.025; rod r = 0.025, L = 0.5.
  const double mw = 4.89499, mr = 2.71944;
  const double R = 0.15, t = 0.025, r = 0.025, L = 0.5;
  const auto wheel = inertia_solid(
      mw,
      Eigen::Vector3d(mw * (3 * R * R + t * t) / 12, mw * (3 * R * R + t * t) / 12, mw * R * R / 2)
          .asDiagonal());
  EXPECT_EQ(wheel.shape, solid_shape::cylinder);
  EXPECT_NEAR(wheel.size[0], 2 * R, 1e-12);
  EXPECT_NEAR(wheel.size[2], t, 1e-12);
  const auto rod = inertia_solid(mr, Eigen::Vector3d(mr * (3 * r * r + L * L) / 12,
                                                     mr * (3 * r * r + L * L) / 12, mr * r * r / 2)
                                         .asDiagonal());
  EXPECT_EQ(rod.shape, solid_shape::cylinder);
  EXPECT_NEAR(rod.size[0], 2 * r, 1e-12);
  EXPECT_NEAR(rod.size[2], L, 1e-12);
}

TEST(InertiaShape, ACylinderAlongXIsTurnedOntoIt) {
  const double m = 2.0, R = 0.1, h = 1.0;
  const double axial = m * R * R / 2, transverse = m * (3 * R * R + h * h) / 12;
  const auto s = inertia_solid(m, Eigen::Vector3d(axial, transverse, transverse).asDiagonal());
  ASSERT_EQ(s.shape, solid_shape::cylinder);
  EXPECT_NEAR(s.size[2], h, 1e-12);
  const Eigen::Quaterniond q(s.shape_rotation[0], s.shape_rotation[1], s.shape_rotation[2],
                             s.shape_rotation[3]);
  // The shape's z (its axis) is the body's x, up to sign; a proper rotation.
  EXPECT_NEAR(std::abs((q * Eigen::Vector3d::UnitZ()).x()), 1.0, 1e-12);
  EXPECT_NEAR(q.toRotationMatrix().determinant(), 1.0, 1e-12);
}

TEST(InertiaShape, AFullMatrixIsDrawnOnItsPrincipalAxes) {
  const double m = 3.0, a = 0.5, b = 1.0, c = 2.0;
  const Eigen::Matrix3d principal =
      Eigen::Vector3d(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12)
          .asDiagonal();
  const Eigen::Matrix3d turn =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const auto s = inertia_solid(m, turn * principal * turn.transpose());
  const Eigen::Quaterniond q(s.shape_rotation[0], s.shape_rotation[1], s.shape_rotation[2],
                             s.shape_rotation[3]);
  // The drawn box's inertia, turned by the shape's rotation, is the given matrix.
  const double x = s.size[0], y = s.size[1], z = s.size[2];
  const Eigen::Matrix3d box =
      Eigen::Vector3d(m * (y * y + z * z) / 12, m * (x * x + z * z) / 12, m * (x * x + y * y) / 12)
          .asDiagonal();
  const Eigen::Matrix3d R = q.toRotationMatrix();
  EXPECT_LT((R * box * R.transpose() - turn * principal * turn.transpose()).norm(), 1e-10);
}

TEST(InertiaShape, ASphereAndThePlanarBarAndNoMass) {
  const double m = 2.0, R = 0.3;
  const auto s = inertia_solid(m, Eigen::Matrix3d::Identity() * (0.4 * m * R * R));
  EXPECT_EQ(s.shape, solid_shape::sphere);
  EXPECT_NEAR(s.size[0], 2 * R, 1e-12);
  // A planar bar of length l, width l/8: I_z = m (l^2 + l^2/64) / 12.
  const double l = 2.0;
  const auto bar = planar_inertia_solid(m, m * (l * l + l * l / 64) / 12);
  EXPECT_NEAR(bar.size[0], l, 1e-12);
  EXPECT_NEAR(bar.size[1], l / 8, 1e-12);
  EXPECT_EQ(inertia_solid(0.0, Eigen::Matrix3d::Identity()).size[0], 0.0);
  EXPECT_EQ(planar_inertia_solid(1.0, 0.0).size[0], 0.0);
}

}  // namespace
