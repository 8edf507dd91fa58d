#include "kinevo/mechanics/model/detail/euler_parameters.hpp"

#include "kinevo/symbolic/detail/exact_numbers.hpp"

namespace kinevo::mechanics {

vec3 operator+(const vec3& a, const vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
vec3 operator-(const vec3& a, const vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
vec3 operator*(const GiNaC::ex& s, const vec3& a) {
  return {s * a[0], s * a[1], s * a[2]};
}
GiNaC::ex dot(const vec3& a, const vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
vec3 cross(const vec3& a, const vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
vec3 times(const mat3& m, const vec3& v) {
  return {dot(m[0], v), dot(m[1], v), dot(m[2], v)};
}
// Exact numbers: GiNaC's floating-point coefficient arithmetic would be rounded in its
// address-dependent order (docs/reliability.md, process-independent results).
vec3 as_vec3(const Eigen::Vector3d& v) {
  return {symbolic::exact_number(v.x()), symbolic::exact_number(v.y()),
          symbolic::exact_number(v.z())};
}

namespace {
vec3 vector_part(const vec4& p) {
  return {p[1], p[2], p[3]};
}
}  // namespace

// E v = -v0 e + e x v_ + e0 v_,  G v = -v0 e - e x v_ + e0 v_ (v_ = (v1, v2, v3)).
vec3 e_times(const vec4& p, const vec4& v) {
  const vec3 e = vector_part(p), w = vector_part(v);
  return (-v[0]) * e + cross(e, w) + p[0] * w;
}
vec3 g_times(const vec4& p, const vec4& v) {
  const vec3 e = vector_part(p), w = vector_part(v);
  return (-v[0]) * e - cross(e, w) + p[0] * w;
}
// E^T w = (-e.w, -e x w + e0 w),  G^T w = (-e.w, e x w + e0 w)  (e~^T = -e~).
vec4 e_transpose_times(const vec4& p, const vec3& w) {
  const vec3 e = vector_part(p);
  const vec3 r = p[0] * w - cross(e, w);
  return {-dot(e, w), r[0], r[1], r[2]};
}
vec4 g_transpose_times(const vec4& p, const vec3& w) {
  const vec3 e = vector_part(p);
  const vec3 r = p[0] * w + cross(e, w);
  return {-dot(e, w), r[0], r[1], r[2]};
}

// A v = E (G^T v) (Haug, section 6.3, eq. 6.3.16).
vec3 rotate(const vec4& p, const vec3& v) {
  return e_times(p, g_transpose_times(p, v));
}

rotational_inertia_terms rotational_terms(const vec4& p, const vec4& p_dot, const mat3& inertia) {
  rotational_inertia_terms out;
  const GiNaC::ex alpha = 4 * (inertia[0][0] + inertia[1][1] + inertia[2][2]) / 3;
  // Column k of G is G e_k; M = 4 G^T J G column by column: M e_k = 4 G^T J (G e_k).
  for (int k = 0; k < 4; ++k) {
    vec4 unit{0, 0, 0, 0};
    unit[static_cast<std::size_t>(k)] = 1;
    const vec4 column = g_transpose_times(p, times(inertia, g_times(p, unit)));
    for (int i = 0; i < 4; ++i) {
      out.mass[static_cast<std::size_t>(i)][static_cast<std::size_t>(k)] =
          (4 * column[static_cast<std::size_t>(i)] +
           alpha * p[static_cast<std::size_t>(i)] * p[static_cast<std::size_t>(k)])
              .expand();
    }
  }
  // 8 G(p')^T J G(p') p = -4 G(p')^T J w' with w' = 2 G(p) p' (G(p') p = -G(p) p').
  const vec3 omega_body = 2 * g_times(p, p_dot);
  const vec4 gyro = g_transpose_times(p_dot, times(inertia, omega_body));
  GiNaC::ex speed2 = 0;
  for (const auto& v : p_dot) speed2 += v * v;
  for (std::size_t i = 0; i < 4; ++i) out.force[i] = -4 * gyro[i] - alpha * p[i] * speed2;
  return out;
}

namespace euler {

namespace {
Eigen::Matrix<double, 3, 4> e_matrix(const Eigen::Vector4d& p) {
  Eigen::Matrix<double, 3, 4> m;
  m << -p[1], p[0], -p[3], p[2],  //
      -p[2], p[3], p[0], -p[1],   //
      -p[3], -p[2], p[1], p[0];
  return m;
}
Eigen::Matrix<double, 3, 4> g_matrix(const Eigen::Vector4d& p) {
  Eigen::Matrix<double, 3, 4> m;
  m << -p[1], p[0], p[3], -p[2],  //
      -p[2], -p[3], p[0], p[1],   //
      -p[3], p[2], -p[1], p[0];
  return m;
}
}  // namespace

Eigen::Matrix3d rotation_matrix(const Eigen::Vector4d& p) {
  return e_matrix(p) * g_matrix(p).transpose();
}

Eigen::Vector4d from_axis_angle(const Eigen::Vector3d& axis, double angle) {
  const Eigen::Vector3d u = axis.normalized();
  Eigen::Vector4d p;
  p << std::cos(angle / 2), std::sin(angle / 2) * u;
  return p;
}

Eigen::Vector4d rates(const Eigen::Vector4d& p, const Eigen::Vector3d& omega, bool body_frame) {
  return 0.5 * (body_frame ? g_matrix(p) : e_matrix(p)).transpose() * omega;
}

Eigen::Vector3d angular_velocity(const Eigen::Vector4d& p, const Eigen::Vector4d& p_dot,
                                 bool body_frame) {
  return 2.0 * (body_frame ? g_matrix(p) : e_matrix(p)) * p_dot;
}

}  // namespace euler

}  // namespace kinevo::mechanics
