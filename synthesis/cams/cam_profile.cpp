#include "kinevo/synthesis/cams/cam_profile.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace kinevo::synthesis {

namespace {
Eigen::Vector2d perp(const Eigen::Vector2d& v) {
  return {-v.y(), v.x()};
}  // turned by +90 deg
Eigen::Vector2d rotate(const Eigen::Vector2d& v, double a) {
  return {std::cos(a) * v.x() - std::sin(a) * v.y(), std::sin(a) * v.x() + std::cos(a) * v.y()};
}
}  // namespace

// With w = sense: x = Rot(-w psi) P, x' = Rot(-w psi)(P' - w J P), x'' = Rot(-w psi)(P'' - 2 w J P'
// - P) (J the +90 deg turn). The curve runs clockwise for w = +1, so its convex side turns with
// signed curvature of sign -w.
cam_curve_point cam_curve(const follower_point& f, double psi, int sense) {
  const double w = sense;
  const Eigen::Vector2d d1 = f.dp - w * perp(f.p);
  const Eigen::Vector2d d2 = f.ddp - 2.0 * w * perp(f.dp) - f.p;
  cam_curve_point c;
  c.x = rotate(f.p, -w * psi);
  c.speed = d1.norm();
  const double cross = d1.x() * d2.y() - d1.y() * d2.x();
  const double convex_curvature = -w * cross / (c.speed * c.speed * c.speed);
  c.radius =
      convex_curvature == 0.0 ? std::numeric_limits<double>::infinity() : 1.0 / convex_curvature;
  // Outward normal: to the right of the tangent for a counterclockwise run, left for clockwise.
  const Eigen::Vector2d t = d1 / c.speed;
  c.outward = rotate(-w * Eigen::Vector2d(t.y(), -t.x()), -w * psi);
  return c;
}

section_properties polygon_properties(const std::vector<Eigen::Vector2d>& poly) {
  double a = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0;
  const std::size_t n = poly.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Eigen::Vector2d& p = poly[i];
    const Eigen::Vector2d& q = poly[(i + 1) % n];
    const double cr = p.x() * q.y() - q.x() * p.y();
    a += cr;
    sx += (p.x() + q.x()) * cr;
    sy += (p.y() + q.y()) * cr;
    sxx += (p.x() * p.x() + p.x() * q.x() + q.x() * q.x()) * cr;
    syy += (p.y() * p.y() + p.y() * q.y() + q.y() * q.y()) * cr;
    sxy += (p.x() * q.y() + 2.0 * p.x() * p.y() + 2.0 * q.x() * q.y() + q.x() * p.y()) * cr;
  }
  section_properties s;
  s.area = a / 2.0;
  s.centroid = {sx / (3.0 * a), sy / (3.0 * a)};
  const double o = a < 0.0 ? -1.0 : 1.0;  // clockwise polygons give negative integrals
  s.area *= o;
  s.iyy = o * sxx / 12.0 - s.area * s.centroid.x() * s.centroid.x();
  s.ixx = o * syy / 12.0 - s.area * s.centroid.y() * s.centroid.y();
  s.ixy = o * sxy / 24.0 - s.area * s.centroid.x() * s.centroid.y();
  // The inertia tensor of the section about the centroid, [[ixx, -ixy], [-ixy, iyy]].
  Eigen::Matrix2d t;
  t << s.ixx, -s.ixy, -s.ixy, s.iyy;
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(t);
  s.i1 = eig.eigenvalues()(1);
  s.i2 = eig.eigenvalues()(0);
  const Eigen::Vector2d axis = eig.eigenvectors().col(1);
  s.principal_angle = std::atan2(axis.y(), axis.x());
  return s;
}

}  // namespace kinevo::synthesis
