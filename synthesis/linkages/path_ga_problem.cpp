#include "kinevo/synthesis/linkages/detail/path_ga_problem.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace kinevo::synthesis {

path_ga_problem::path_ga_problem(path_problem p) : problem_(std::move(p)) {
  const auto [xmin, xmax] = std::minmax_element(problem_.x.begin(), problem_.x.end());
  const auto [ymin, ymax] = std::minmax_element(problem_.y.begin(), problem_.y.end());
  unit_ = std::max(std::hypot(*xmax - *xmin, *ymax - *ymin), 1e-9);
  // A length bound of 0 is coded as a thousandth of the points' extent (or of the upper bound).
  smallest_ = std::max(problem_.link_bounds.lo, 1e-3 * std::min(unit_, problem_.link_bounds.hi));
  std::vector<double> lo, hi;
  const auto add = [&](double a, double b) {
    lo.push_back(a);
    hi.push_back(b);
  };
  const double turn = 2.0 * std::numbers::pi;
  for (int i = 0; i < 4; ++i) {
    add(length_gene(std::max(problem_.link_bounds.lo, 0.0)), length_gene(problem_.link_bounds.hi));
  }
  for (int i = 0; i < 2; ++i) {
    add(coordinate_gene(problem_.coupler_bounds.lo), coordinate_gene(problem_.coupler_bounds.hi));
  }
  // No genes for the frame: each candidate is placed where it fits best (closed form).
  if (problem_.timing == path_timing::relative) add(0.0, turn);
  if (problem_.timing == path_timing::free) {
    add(0.0, turn);  // input angle at the first point
    add(-1.0, 1.0);  // direction: its sign
    // One weight per arc between consecutive points, and the arc left over.
    for (std::size_t i = 0; i < problem_.size(); ++i) add(0.0, 1.0);
  }
  lower_ = Eigen::Map<Eigen::VectorXd>(lo.data(), static_cast<Eigen::Index>(lo.size()));
  upper_ = Eigen::Map<Eigen::VectorXd>(hi.data(), static_cast<Eigen::Index>(hi.size()));
}

path_design path_ga_problem::decode(const Eigen::VectorXd& g) const {
  path_design d;
  path_linkage& l = d.linkage;
  Eigen::Index k = 0;
  l.r1 = length_of(g(k++)), l.r2 = length_of(g(k++)), l.r3 = length_of(g(k++));
  l.r4 = length_of(g(k++));
  l.rcx = coordinate_of(g(k++)), l.rcy = coordinate_of(g(k++));
  const std::size_t n = problem_.size();
  if (problem_.timing == path_timing::prescribed) {
    d.input = problem_.input;
  } else if (problem_.timing == path_timing::relative) {
    const double offset = g(k++);
    for (const double a : problem_.input) d.input.push_back(offset + a);
  } else {
    const double start = g(k++);
    const double direction = g(k++) < 0.0 ? -1.0 : 1.0;
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += g(k + static_cast<Eigen::Index>(i));
    // All weights zero: equal arcs.
    const bool flat = !(sum > 0.0);
    const double scale = 2.0 * std::numbers::pi / (flat ? static_cast<double>(n) : sum);
    double angle = start;
    for (std::size_t i = 0; i < n; ++i) {
      d.input.push_back(angle);
      angle += direction * scale * (flat ? 1.0 : g(k + static_cast<Eigen::Index>(i)));
    }
  }
  place_and_evaluate_path_design(problem_, d);
  return d;
}

double path_ga_problem::length_gene(double r) const {
  return std::log(std::max(r, smallest_) / unit_);
}
double path_ga_problem::length_of(double gene) const {
  return std::clamp(unit_ * std::exp(gene), problem_.link_bounds.lo, problem_.link_bounds.hi);
}
double path_ga_problem::coordinate_gene(double c) const {
  return std::asinh(c / unit_);
}
double path_ga_problem::coordinate_of(double gene) const {
  return std::clamp(unit_ * std::sinh(gene), problem_.coupler_bounds.lo,
                    problem_.coupler_bounds.hi);
}

void path_ga_problem::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values) const {
  Eigen::VectorXd violations(x.cols());
  evaluate_with_violation(x, values, violations);
}

void path_ga_problem::evaluate_with_violation(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                              Eigen::Ref<Eigen::VectorXd> values,
                                              Eigen::Ref<Eigen::VectorXd> violations) const {
  for (Eigen::Index j = 0; j < x.cols(); ++j) {
    path_design d = decode(x.col(j));
    const path_evaluation e = evaluate_path_design(problem_, d);
    values(j) = e.objective;
    violations(j) = e.violation();
  }
}

}  // namespace kinevo::synthesis
