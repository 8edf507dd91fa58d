#include "kinevo/synthesis/linkages/grashof.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace kinevo::synthesis {

double input_crank_f1(const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
  const double k1 = k(0), k2 = k(1), k3 = k(2);
  if (g) {
    g->resize(3);
    *g << 2.0 * (k1 * k3 - 2.0 * k2) * k3, 2.0 * (2.0 * (k2 - k1 * k3) + k2 * k3 * k3),
        2.0 * ((k1 * k1 + k2 * k2 - 2.0 * k3 * k3 + 1.0) * k3 - 2.0 * k1 * k2);
  }
  if (h) {
    h->resize(3, 3);
    *h << k3 * k3, -2.0 * k3, 2.0 * (k1 * k3 - k2),      //
        -2.0 * k3, 2.0 + k3 * k3, 2.0 * (k2 * k3 - k1),  //
        2.0 * (k1 * k3 - k2), 2.0 * (k2 * k3 - k1), k1 * k1 + k2 * k2 - 6.0 * k3 * k3 + 1.0;
    *h *= 2.0;
  }
  const double d = k2 - k1 * k3;
  return 2.0 * d * d - k3 * k3 * (k1 * k1 - k2 * k2 + k3 * k3 - 1.0);
}

double input_crank_f2(const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
  const double k1 = k(0), k2 = k(1), k3 = k(2);
  const double p = (k1 - k3) * (k1 - k3) - (k2 - 1.0) * (k2 - 1.0);
  const double q = (k1 + k3) * (k1 + k3) - (k2 + 1.0) * (k2 + 1.0);
  if (g) {
    g->resize(3);
    *g = 2.0 * (Eigen::Vector3d(k1 - k3, 1.0 - k2, k3 - k1) * q +
                Eigen::Vector3d(k1 + k3, -k2 - 1.0, k1 + k3) * p);
  }
  if (h) {
    h->resize(3, 3);
    *h << 3 * k1 * k1 - k2 * k2 - k3 * k3 - 1, 2 * (k3 - k1 * k2), 2 * (k2 - k1 * k3),  //
        2 * (k3 - k1 * k2), -k1 * k1 + 3 * k2 * k2 - k3 * k3 - 1, 2 * (k1 - k2 * k3),   //
        2 * (k2 - k1 * k3), 2 * (k1 - k2 * k3), -k1 * k1 - k2 * k2 + 3 * k3 * k3 - 1;
    *h *= 4.0;
  }
  return p * q;
}

double input_crank_h1(const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
  const double u = k(1) - 1.0, v = k(0) - k(2);
  if (g) {
    g->resize(3);
    *g << -2.0 * v, 2.0 * u, 2.0 * v;
  }
  if (h) {
    h->resize(3, 3);
    *h << -2, 0, 2, 0, 2, 0, 2, 0, -2;
  }
  return u * u - v * v;
}

double input_crank_h2(const Eigen::VectorXd& k, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
  const double u = k(1) + 1.0, v = k(0) + k(2);
  if (g) {
    g->resize(3);
    *g << -2.0 * v, 2.0 * u, -2.0 * v;
  }
  if (h) {
    h->resize(3, 3);
    *h << -2, 0, -2, 0, 2, 0, -2, 0, -2;
  }
  return u * u - v * v;
}

Eigen::Vector3d swap_input_output(const Eigen::Vector3d& k) {
  return {k(0), -k(2), -k(1)};
}

crank_test input_crank(const Eigen::Vector3d& k) {
  crank_test t;
  const Eigen::VectorXd kx = k;
  t.f1 = input_crank_f1(kx);
  t.f2 = input_crank_f2(kx);
  t.crank = t.f1 > 0.0 && input_crank_h1(kx) > 0.0 && input_crank_h2(kx) > 0.0;
  return t;
}

crank_test output_crank(const Eigen::Vector3d& k) {
  return input_crank(swap_input_output(k));
}

rocker_limits input_rocker_limits(const Eigen::Vector3d& k) {
  rocker_limits r;
  const double k1 = k(0), k2 = k(1), k3 = k(2);
  const double b = (k2 - k1 * k3) / (k3 * k3);
  const double c = (k1 * k1 - k2 * k2 - 1.0) / (k3 * k3);
  const double disc = b * b - c;
  if (disc < 0.0 || !std::isfinite(disc)) return r;
  // Cancellation-free pair of roots of x^2 + 2 b x + c = 0.
  const double q = -b - std::copysign(std::sqrt(disc), b);
  const std::array<double, 2> roots = {q, q != 0.0 ? c / q : 0.0};
  for (const double x : roots) {
    if (x >= -1.0 && x <= 1.0 && r.count < 2) r.cos_limit[r.count++] = x;
  }
  if (r.count == 2 && r.cos_limit[0] > r.cos_limit[1]) std::swap(r.cos_limit[0], r.cos_limit[1]);
  return r;
}

rocker_limits output_rocker_limits(const Eigen::Vector3d& k) {
  return input_rocker_limits(swap_input_output(k));
}

std::string grashof_type(const fourbar_links& l) {
  std::array<double, 4> a = {std::abs(l.a1), std::abs(l.a2), std::abs(l.a3), std::abs(l.a4)};
  const auto shortest = static_cast<int>(std::min_element(a.begin(), a.end()) - a.begin());
  std::array<double, 4> s = a;
  std::sort(s.begin(), s.end());
  const double lhs = s[0] + s[3], rhs = s[1] + s[2];
  const double tol = 1e-12 * (rhs + lhs);
  if (std::abs(lhs - rhs) <= tol) return "change-point";
  if (lhs > rhs) return "non-Grashof triple-rocker";
  switch (shortest) {
    case 0:
      return "double-crank";
    case 1:
    case 3:
      return "crank-rocker";
    default:
      return "double-rocker";
  }
}

}  // namespace kinevo::synthesis
