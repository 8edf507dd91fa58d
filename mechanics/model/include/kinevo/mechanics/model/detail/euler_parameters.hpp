// Rigid-body orientation in Euler parameters p = (e0, e), a unit quaternion, as expressions for
// the model pipeline and as numbers for initial values and checks. Conventions of Haug,
// Computer-Aided Kinematics and Dynamics of Mechanical Systems, section 6.3 (Euler parameters):
//   E(p) = [-e, e~ + e0 I],  G(p) = [-e, -e~ + e0 I]          (3 x 4)
//   A(p) = E G^T = (e0^2 - e.e) I + 2 e e^T + 2 e0 e~          (body to global)
//   w = 2 E p',  w' = 2 G p'   (global and body angular velocity)
// with e~ the cross-product matrix of e; G(p) p = 0 and G(p) v = -G(v) p.
#pragma once

#include <ginac/ginac.h>

#include <Eigen/Core>
#include <array>

namespace kinevo::mechanics {

using vec3 = std::array<GiNaC::ex, 3>;
using vec4 = std::array<GiNaC::ex, 4>;
using mat3 = std::array<vec3, 3>;  // rows

vec3 operator+(const vec3& a, const vec3& b);
vec3 operator-(const vec3& a, const vec3& b);
vec3 operator*(const GiNaC::ex& s, const vec3& a);
GiNaC::ex dot(const vec3& a, const vec3& b);
vec3 cross(const vec3& a, const vec3& b);
vec3 times(const mat3& m, const vec3& v);
vec3 as_vec3(const Eigen::Vector3d& v);

// A(p) v: a body-fixed vector in the global frame.
vec3 rotate(const vec4& p, const vec3& v);
// E(p) v and G(p) v for a 4-vector v; E(p)^T w and G(p)^T w for a 3-vector w.
vec3 e_times(const vec4& p, const vec4& v);
vec3 g_times(const vec4& p, const vec4& v);
vec4 e_transpose_times(const vec4& p, const vec3& w);
vec4 g_transpose_times(const vec4& p, const vec3& w);

// The rotational block of the mass matrix, 4 G^T J G + alpha p p^T, and of the generalized
// force, 8 G(p')^T J G(p') p - alpha p (p'.p'). The first terms are Lagrange's equations of
// T = 2 p'^T G^T J G p' (Haug, section 11.1): d/dt(dT/dp') - dT/dp = 4 G^T J G p'' +
// 4 G(p')^T J G p' - 4 G(p')^T J G(p') p, and G p' = -G(p') p. 4 G^T J G is singular (G p = 0);
// alpha p p^T with alpha = 4 trace(J)/3 makes it positive definite, as every solver needs. On the
// constraint p.p = 1, where p.p'' = -p'.p', the added terms cancel: alpha p (p.p'' + p'.p') = 0, so
// no acceleration changes and the normalisation row's multiplier keeps its meaning (Udwadia and
// Schutte, "An alternative derivation of the quaternion equations of motion for rigid-body
// rotational dynamics", J. Appl. Mech. 77 (2010), use the same freedom).
struct rotational_inertia_terms {
  std::array<std::array<GiNaC::ex, 4>, 4> mass;
  vec4 force;
};
rotational_inertia_terms rotational_terms(const vec4& p, const vec4& p_dot, const mat3& inertia);

namespace euler {

// Numbers: A(p), p from an axis and angle, p' from an angular velocity (global or body).
Eigen::Matrix3d rotation_matrix(const Eigen::Vector4d& p);
Eigen::Vector4d from_axis_angle(const Eigen::Vector3d& axis, double angle);
// p' = 1/2 E^T w (global w) or 1/2 G^T w' (body w'): the inverse of w = 2 E p' on p.p' = 0.
Eigen::Vector4d rates(const Eigen::Vector4d& p, const Eigen::Vector3d& omega, bool body_frame);
// w = 2 E p' (global) or w' = 2 G p' (body).
Eigen::Vector3d angular_velocity(const Eigen::Vector4d& p, const Eigen::Vector4d& p_dot,
                                 bool body_frame);

}  // namespace euler

}  // namespace kinevo::mechanics
