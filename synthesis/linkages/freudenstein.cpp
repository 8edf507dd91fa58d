#include "kinevo/synthesis/linkages/freudenstein.hpp"

#include <Eigen/LU>
#include <cmath>
#include <numbers>
#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/numerics/least_squares.hpp"

namespace kinevo::synthesis {

fourbar_links links_from_k(const Eigen::Vector3d& k, double frame) {
  const double k1 = k(0), k2 = k(1), k3 = k(2);
  if (k2 == 0.0 || k3 == 0.0 || !k.allFinite()) {
    // k is the argument out of its domain (the caller keeps the message as the result's link
    // problem); the split keeps the words the reports have always shown.
    throw io::option_error("k2",
                           "or k3 is zero: the input or output link would be infinitely long");
  }
  const double radicand = k2 * k2 + k3 * k3 + k2 * k2 * k3 * k3 - 2.0 * k1 * k2 * k3;
  if (radicand < 0.0) {
    throw io::option_error("k", "defines no real four-bar (the coupler length is imaginary)");
  }
  fourbar_links l;
  l.a1 = frame;
  l.a2 = frame / k2;
  l.a3 = frame * std::sqrt(radicand) / std::abs(k2 * k3);
  l.a4 = frame / k3;
  return l;
}

Eigen::Vector3d k_from_links(const fourbar_links& l) {
  return {(l.a1 * l.a1 + l.a2 * l.a2 - l.a3 * l.a3 + l.a4 * l.a4) / (2.0 * l.a2 * l.a4),
          l.a1 / l.a2, l.a1 / l.a4};
}

void freudenstein_system(const std::vector<double>& psi, const std::vector<double>& phi,
                         Eigen::MatrixXd& a, Eigen::VectorXd& b) {
  if (psi.size() != phi.size())
    throw io::option_error("phi", "must have one entry per psi (freudenstein)");
  const auto n = static_cast<Eigen::Index>(psi.size());
  a.resize(n, 3);
  b.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    a.row(i) << 1.0, std::cos(phi[u]), -std::cos(psi[u]);
    b(i) = std::cos(phi[u] - psi[u]);
  }
}

freudenstein_fit freudenstein_exact(const std::vector<double>& psi,
                                    const std::vector<double>& phi) {
  if (psi.size() != 3)
    throw io::option_error("psi", "must have exactly 3 precision points (exact synthesis)");
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  freudenstein_system(psi, phi, a, b);
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
  freudenstein_fit f;
  f.rcond = lu.rcond();
  if (!(f.rcond > 1e-12)) {
    f.summary = core::summary::ended(
        core::termination::failed, "singular",
        "the three precision points do not determine k (singular Freudenstein matrix, rcond " +
            std::to_string(f.rcond) + "); choose other points");
    return f;
  }
  f.k = lu.solve(b);
  f.residual = a * f.k - b;
  f.residual_norm = f.residual.norm();
  return f;
}

freudenstein_fit freudenstein_least_squares(const std::vector<double>& psi,
                                            const std::vector<double>& phi,
                                            const std::vector<double>& weights) {
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
  freudenstein_system(psi, phi, a, b);
  Eigen::MatrixXd aw = a;
  Eigen::VectorXd bw = b;
  if (!weights.empty()) {
    if (weights.size() != psi.size())
      throw io::option_error("weights", "must have one entry per point (freudenstein)");
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const double s = std::sqrt(weights[static_cast<std::size_t>(i)]);
      aw.row(i) *= s;
      bw(i) *= s;
    }
  }
  const auto ls = numerics::linear_least_squares(aw, bw);
  freudenstein_fit f;
  if (!ls.summary.usable()) {
    f.summary = ls.summary;
    return f;
  }
  f.k = ls.x;
  f.residual = a * f.k - b;
  f.residual_norm = f.residual.norm();
  return f;
}

std::vector<double> chebyshev_spacing(double lo, double hi, int n) {
  if (n < 1) throw io::option_error("n", "must be >= 1 (chebyshev_spacing)");
  std::vector<double> x;
  for (int j = 1; j <= n; ++j) {
    x.push_back(0.5 * (lo + hi) -
                0.5 * (hi - lo) * std::cos((2.0 * j - 1.0) * std::numbers::pi / (2.0 * n)));
  }
  return x;
}

}  // namespace kinevo::synthesis
