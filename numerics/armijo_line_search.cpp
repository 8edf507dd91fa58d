#include "kinevo/numerics/armijo_line_search.hpp"

#include <algorithm>
#include <cmath>

namespace kinevo::numerics {

namespace {

constexpr double sufficient_decrease = 1e-4;  // c1 of the Armijo condition
constexpr int max_backtracks = 60;
constexpr int max_doublings = 20;

// Stage: backtracking from alpha = 1 with the minimum of the quadratic through F(0), F'(0) and
// F(alpha), kept within [0.1, 0.5] alpha. Returns the backtracks, or -1 when none is accepted.
int backtrack_armijo(const std::function<double(const Eigen::VectorXd&)>& f,
                     const Eigen::VectorXd& q, const Eigen::VectorXd& d, double f0, double slope,
                     line_search_point& p) {
  p.alpha = 1.0;
  p.value = f(q + p.alpha * d);
  int backtracks = 0;
  while (!(p.value <= f0 + sufficient_decrease * p.alpha * slope)) {
    if (++backtracks > max_backtracks) return -1;
    const double denom = 2.0 * (p.value - f0 - slope * p.alpha);
    double next =
        std::isfinite(p.value) && denom > 0.0 ? -slope * p.alpha * p.alpha / denom : 0.5 * p.alpha;
    next = std::clamp(next, 0.1 * p.alpha, 0.5 * p.alpha);
    p.alpha = next;
    p.value = f(q + p.alpha * d);
  }
  return backtracks;
}

// Stage: one step to the minimum of the quadratic through F(0), F'(0) and F(alpha) when it is
// lower.
void quadratic_fit(const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& q,
                   const Eigen::VectorXd& d, double f0, double slope, line_search_point& p) {
  const double denom = 2.0 * (p.value - f0 - slope * p.alpha);
  if (!(denom > 0.0)) return;
  const double fit = -slope * p.alpha * p.alpha / denom;
  if (fit > 0.0 && std::abs(fit - p.alpha) > 1e-3 * p.alpha && fit < 8.0 * p.alpha) {
    const double ff = f(q + fit * d);
    if (ff < p.value) {
      p.alpha = fit;
      p.value = ff;
    }
  }
}

}  // namespace

line_search_point armijo_line_search(const std::function<double(const Eigen::VectorXd&)>& f,
                                     const Eigen::VectorXd& q, const Eigen::VectorXd& d, double f0,
                                     double slope) {
  line_search_point p;
  const int backtracks = backtrack_armijo(f, q, d, f0, slope, p);
  if (backtracks < 0) return {0.0, f0};
  quadratic_fit(f, q, d, f0, slope, p);
  if (backtracks == 0) {
    for (int k = 0; k < max_doublings; ++k) {
      const double ff = f(q + 2.0 * p.alpha * d);
      if (!(ff < p.value)) break;
      p.alpha *= 2.0;
      p.value = ff;
    }
  }
  return p;
}

}  // namespace kinevo::numerics
