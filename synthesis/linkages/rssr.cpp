#include "kinevo/synthesis/linkages/rssr.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kinevo/io/errors.hpp"
#include "kinevo/numerics/least_squares.hpp"
#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"

namespace kinevo::synthesis {

void rssr_system(const std::vector<double>& psi, const std::vector<double>& phi, double alpha4,
                 Eigen::MatrixXd& a, Eigen::VectorXd& b) {
  if (psi.size() != phi.size()) throw io::option_error("phi", "must have one entry per psi (rssr)");
  const auto n = static_cast<Eigen::Index>(psi.size());
  const double ca = std::cos(alpha4);
  a.resize(n, 6);
  b.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    const double cf = std::cos(phi[u]), sf = std::sin(phi[u]), cp = std::cos(psi[u]),
                 sp = std::sin(psi[u]);
    a.row(i) << cf, sf, -cp, sp, sf * cp + cf * sp * ca, 1.0;
    b(i) = -cf * cp + ca * sp * sf;
  }
}

rssr_fit rssr_least_squares(const std::vector<double>& psi, const std::vector<double>& phi,
                            double alpha4) {
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  rssr_system(psi, phi, alpha4, a, b);
  const auto ls = numerics::linear_least_squares(a, b);
  rssr_fit f;
  if (!ls.summary.usable()) {
    f.summary = ls.summary;
    return f;
  }
  f.k = ls.x;
  f.residual = ls.residual;
  f.residual_norm = ls.residual_norm;
  return f;
}

double rssr_output(const rssr_k& k, double alpha4, double psi, double near) {
  const double ca = std::cos(alpha4), cp = std::cos(psi), sp = std::sin(psi);
  // Eq. (11) as P cos phi + Q sin phi = R.
  const double p = k(0) + cp + k(4) * ca * sp;
  const double q = k(1) + k(4) * cp - ca * sp;
  const double r = k(2) * cp - k(3) * sp - k(5);
  const double h = std::hypot(p, q);
  if (!(h > 0.0) || std::abs(r) > h) return std::numeric_limits<double>::quiet_NaN();
  const double base = std::atan2(q, p), d = std::acos(r / h);
  const double c1 = base + d, c2 = base - d;
  return std::abs(wrap_angle(c1 - near)) <= std::abs(wrap_angle(c2 - near))
             ? near + wrap_angle(c1 - near)
             : near + wrap_angle(c2 - near);
}

std::vector<double> rssr_sweep(const rssr_k& k, double alpha4, double lo, double hi, double start,
                               int samples) {
  std::vector<double> out;
  double near = start;
  for (int i = 0; i < samples; ++i) {
    const double p = samples > 1 ? lo + (hi - lo) * i / (samples - 1) : lo;
    const double g = rssr_output(k, alpha4, p, near);
    out.push_back(g);
    if (std::isfinite(g)) near = g;
  }
  return out;
}

std::vector<double> rssr_errors(const rssr_k& k, double alpha4, const std::vector<double>& psi,
                                const std::vector<double>& phi) {
  std::vector<double> e;
  for (std::size_t i = 0; i < psi.size(); ++i)
    e.push_back(phi[i] - rssr_output(k, alpha4, psi[i], phi[i]));
  return e;
}

double rssr_transmission_angle(const rssr_k& k, const rssr_dimensions& d, double psi, double phi) {
  const double ca = std::cos(d.alpha4);
  const double cphi = std::cos(phi), sphi = std::sin(phi), cpsi = std::cos(psi),
               spsi = std::sin(psi);
  const double de_dphi = -k(0) * sphi + k(1) * cphi + k(4) * (cphi * cpsi - sphi * spsi * ca) -
                         sphi * cpsi - ca * spsi * cphi;
  const double s = std::abs(d.a3 * std::cos(d.phi0) * de_dphi) / d.a2;
  if (!std::isfinite(s)) return std::numeric_limits<double>::quiet_NaN();
  return std::asin(std::min(1.0, s));
}

rssr_dimensions rssr_dimensions_from_k(const rssr_k& k, double alpha4, double a4) {
  const double sa = std::sin(alpha4), ca = std::cos(alpha4);
  if (std::abs(sa) < 1e-12)
    throw io::option_error("alpha4", "= 0 or 180 deg (parallel axes) is planar (rssr)");
  rssr_dimensions d;
  d.a4 = a4;
  d.alpha4 = alpha4;
  const double t = k(4);
  d.phi0 = std::atan(t);
  const double c0 = std::cos(d.phi0);
  const double den = k(0) + t * k(1);
  if (k(2) == 0.0 || den == 0.0)
    throw io::option_error("k", "gives an infinitely long link (rssr)");
  d.a1 = -a4 / (k(2) * c0);
  d.a3 = -a4 * (1.0 + t * t) / den;
  d.output_offset = k(3) * d.a1 * c0 / sa;
  d.input_offset = -(k(1) * d.a3 + a4 * t) / sa;
  const double a2sq = 2.0 * d.a1 * d.a3 * c0 * k(5) + d.a1 * d.a1 + d.a3 * d.a3 + a4 * a4 +
                      d.output_offset * d.output_offset + d.input_offset * d.input_offset +
                      2.0 * d.output_offset * d.input_offset * ca;
  if (!(a2sq > 0.0))
    throw io::option_error("k", "defines no RSSR (the coupler length is imaginary)");
  d.a2 = std::sqrt(a2sq);
  return d;
}

rssr_k rssr_k_from_dimensions(const rssr_dimensions& d) {
  const double sa = std::sin(d.alpha4), ca = std::cos(d.alpha4);
  const double t = std::tan(d.phi0), c0 = std::cos(d.phi0);
  rssr_k k;
  k(4) = t;
  k(2) = -d.a4 / (d.a1 * c0);
  k(3) = d.output_offset * sa / (d.a1 * c0);
  // From a3 (k1 + t k2) = -a4 (1 + t^2) and k2 a3 = -(a4 t + input_offset sa).
  k(1) = -(d.a4 * t + d.input_offset * sa) / d.a3;
  k(0) = -d.a4 * (1.0 + t * t) / d.a3 - t * k(1);
  k(5) =
      (d.a2 * d.a2 - d.a1 * d.a1 - d.a3 * d.a3 - d.a4 * d.a4 - d.output_offset * d.output_offset -
       d.input_offset * d.input_offset - 2.0 * d.output_offset * d.input_offset * ca) /
      (2.0 * d.a1 * d.a3 * c0);
  return k;
}

}  // namespace kinevo::synthesis
