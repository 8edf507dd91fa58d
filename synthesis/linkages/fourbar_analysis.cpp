#include "kinevo/synthesis/linkages/fourbar_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "kinevo/synthesis/linkages/grashof.hpp"

namespace kinevo::synthesis {

double wrap_angle(double a) {
  const double two_pi = 2.0 * std::numbers::pi;
  a = std::fmod(a, two_pi);
  if (a <= -std::numbers::pi) a += two_pi;
  if (a > std::numbers::pi) a -= two_pi;
  return a;
}

double fourbar_discriminant(const Eigen::Vector3d& k, double psi) {
  const double c = std::cos(psi), s = std::sin(psi);
  const double a = k(0) - k(1) + (1.0 - k(2)) * c;
  const double cc = k(0) + k(1) - (1.0 + k(2)) * c;
  return s * s - a * cc;
}

output_angles fourbar_output(const Eigen::Vector3d& k, double psi) {
  const double c = std::cos(psi), s = std::sin(psi);
  const double a = k(0) - k(1) + (1.0 - k(2)) * c;   // eq. (8a)
  const double b = s;                                // eq. (8b)
  const double cc = k(0) + k(1) - (1.0 + k(2)) * c;  // eq. (8c)
  const double d = b * b - a * cc;
  output_angles r;
  if (!(d >= 0.0)) return r;
  r.assembles = true;
  const double root = std::sqrt(d);
  // q = B + sign(B) sqrt(D): roots T = q / A and T = C / q, each as an atan2 so that A = 0
  // (phi = pi) and q = 0 need no special case.
  const double q = b >= 0.0 ? b + root : b - root;
  const double t1 = 2.0 * std::atan2(q, a);
  const double t2 = 2.0 * std::atan2(cc, q);
  if (b >= 0.0) {
    r.plus = wrap_angle(t1);
    r.minus = wrap_angle(t2);
  } else {
    r.plus = wrap_angle(t2);
    r.minus = wrap_angle(t1);
  }
  return r;
}

structural_error fourbar_structural_error(const Eigen::Vector3d& k, const std::vector<double>& psi,
                                          const std::vector<double>& phi) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  structural_error best;
  double best_score = std::numeric_limits<double>::infinity();
  for (const int branch : {1, -1}) {
    structural_error e;
    e.branch = branch;
    double sum = 0.0;
    for (std::size_t i = 0; i < psi.size(); ++i) {
      const auto o = fourbar_output(k, psi[i]);
      if (!o.assembles) {
        e.generated.push_back(nan);
        e.error.push_back(nan);
        ++e.unassembled;
        continue;
      }
      const double g = branch > 0 ? o.plus : o.minus;
      const double err = wrap_angle(phi[i] - g);
      e.generated.push_back(g);
      e.error.push_back(err);
      sum += err * err;
      e.max_abs = std::max(e.max_abs, std::abs(err));
    }
    const auto assembled = static_cast<double>(psi.size()) - e.unassembled;
    e.rms = assembled > 0 ? std::sqrt(sum / assembled) : nan;
    if (e.unassembled > 0) e.max_abs = std::numeric_limits<double>::infinity();
    const double score = e.unassembled * 1e6 + (assembled > 0 ? e.rms : 0.0);
    if (score < best_score) {
      best_score = score;
      best = std::move(e);
    }
  }
  return best;
}

std::vector<double> input_dead_points(const Eigen::Vector3d& k) {
  std::vector<double> out;
  const auto lim = input_rocker_limits(k);
  for (int i = 0; i < lim.count; ++i) {
    const double a = std::acos(lim.cos_limit[i]);
    out.push_back(a);
    if (a > 0.0 && a < std::numbers::pi) out.push_back(-a);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<double> output_dead_points(const Eigen::Vector3d& k) {
  return input_dead_points(swap_input_output(k));
}

bool input_turns_fully(const Eigen::Vector3d& k, int samples) {
  for (int i = 0; i < samples; ++i) {
    if (!(fourbar_discriminant(k, 2.0 * std::numbers::pi * i / samples) > 0.0)) return false;
  }
  return true;
}

bool output_turns_fully(const Eigen::Vector3d& k, int samples) {
  return input_turns_fully(swap_input_output(k), samples);
}

double transmission_angle(const fourbar_links& l, double psi) {
  const double d2 = l.a1 * l.a1 + l.a2 * l.a2 - 2.0 * l.a1 * l.a2 * std::cos(psi);
  const double c = (l.a3 * l.a3 + l.a4 * l.a4 - d2) / (2.0 * std::abs(l.a3 * l.a4));
  return std::acos(std::clamp(c, -1.0, 1.0));
}

double min_transmission_angle(const fourbar_links& l, const std::vector<double>& psi) {
  double m = std::numbers::pi / 2;
  for (const double p : psi) {
    const double mu = transmission_angle(l, p);
    m = std::min(m, std::min(mu, std::numbers::pi - mu));
  }
  return m;
}

}  // namespace kinevo::synthesis

namespace kinevo::synthesis {

fourbar_sweep sweep_fourbar(const Eigen::Vector3d& k, int branch, const std::vector<double>& psi,
                            const std::vector<double>& phi, int samples) {
  std::vector<std::size_t> order(psi.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return psi[a] < psi[b]; });
  fourbar_sweep s;
  if (order.empty()) return s;
  const double lo = psi[order.front()], hi = psi[order.back()];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < samples; ++i) {
    const double p = samples > 1 ? lo + (hi - lo) * i / (samples - 1) : lo;
    std::size_t seg = 0;
    while (seg + 2 < order.size() && psi[order[seg + 1]] < p) ++seg;
    const std::size_t i0 = order[seg], i1 = order[std::min(seg + 1, order.size() - 1)];
    const double w = psi[i1] != psi[i0] ? (p - psi[i0]) / (psi[i1] - psi[i0]) : 0.0;
    const double interp = phi[i0] + w * wrap_angle(phi[i1] - phi[i0]);
    const auto o = fourbar_output(k, p);
    const double g = o.assembles ? (branch > 0 ? o.plus : o.minus) : nan;
    s.psi.push_back(p);
    s.generated.push_back(g);
    s.interpolated.push_back(interp);
    s.difference.push_back(o.assembles ? wrap_angle(interp - g) : nan);
  }
  return s;
}

}  // namespace kinevo::synthesis
