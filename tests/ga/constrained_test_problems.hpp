// Small constrained problems written out for the GA's constraint-handling tests.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "kinevo/ga/constrained_problem.hpp"

namespace kinevo::ga::testing {

// Bracken and McCormick's problem (J. Bracken and G. P. McCormick, "Selected applications of
// nonlinear programming", 1968; the classical penalty example): minimise
// f = (x1 - 2)^2 + (x2 - 1)^2 subject to h = x1 - 2 x2 + 1 = 0 and g = x1^2 / 4 + x2^2 - 1 <= 0.
// Optimum x* = ((sqrt 7 - 1) / 2, (sqrt 7 + 1) / 4), both constraints active.
class bracken_mccormick : public constrained_problem {
 public:
  int dimension() const override { return 2; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::Vector2d(-2.0, -2.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::Vector2d(2.0, 2.0); }
  std::string name() const override { return "bracken_mccormick"; }
  int constraint_count() const override { return 2; }
  bool is_equality(int i) const override { return i == 0; }
  std::string constraint_name(int i) const override { return i == 0 ? "h" : "g"; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> c) const override {
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
      const double x1 = x(0, k), x2 = x(1, k);
      values[k] = (x1 - 2.0) * (x1 - 2.0) + (x2 - 1.0) * (x2 - 1.0);
      c(0, k) = x1 - 2.0 * x2 + 1.0;
      c(1, k) = x1 * x1 / 4.0 + x2 * x2 - 1.0;
    }
  }

  static Eigen::VectorXd optimum() {
    const double s = std::sqrt(7.0);
    return Eigen::Vector2d((s - 1.0) / 2.0, (s + 1.0) / 4.0);
  }
};

// CEC 2006 g06 (Liang et al., "Problem definitions and evaluation criteria for the CEC 2006
// special session on constrained real-parameter optimization", 2006): a tiny feasible crescent.
class cec2006_g06 : public constrained_problem {
 public:
  static constexpr double best_known = -6961.81387558015;  // f* of the report

  int dimension() const override { return 2; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::Vector2d(13.0, 0.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::Vector2d(100.0, 100.0); }
  std::string name() const override { return "g06"; }
  int constraint_count() const override { return 2; }
  bool is_equality(int) const override { return false; }
  std::string constraint_name(int i) const override { return i == 0 ? "g1" : "g2"; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> c) const override {
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
      const double a = x(0, k), b = x(1, k);
      values[k] = std::pow(a - 10.0, 3) + std::pow(b - 20.0, 3);
      c(0, k) = -(a - 5.0) * (a - 5.0) - (b - 5.0) * (b - 5.0) + 100.0;
      c(1, k) = (a - 6.0) * (a - 6.0) + (b - 5.0) * (b - 5.0) - 82.81;
    }
  }
};

}  // namespace kinevo::ga::testing
