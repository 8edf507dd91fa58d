// Test functions whose valleys are narrow, or not aligned with the axes, or both: where an
// operator that works coordinate by coordinate slows down and a rotation-invariant one does not
// (docs/ga.md, "Rotation-invariant recombination"). Minimum 0 at x = 0 for all of them.
#pragma once

#include <Eigen/Core>
#include <string>

#include "kinevo/ga/problem.hpp"

namespace kinevo::ga {

// The fixed rotation of the rotated functions: the orthogonal factor Q of the Householder QR
// of the n x n matrix A_ij = sin(1 + i + n j) (i, j from 0), with the signs that make R's
// diagonal positive. Deterministic (no random generator, the same on every machine to the last
// bits of sin) and dense: every rotated variable mixes all original ones.
Eigen::MatrixXd fixed_rotation(int n);

// f = sum_i i x_i^2 (i from 1): Deb et al.'s (2002) ellipsoidal function, condition number n.
// Box [-10, 10]^n.
class ellipsoid_function : public problem {
 public:
  explicit ellipsoid_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "ellipsoid"; }

 private:
  int n_;
};

// f = sum_i (sum_{j <= i} x_j)^2: Schwefel's double sum (Schwefel's problem 1.2), a
// non-separable quadratic whose Hessian has condition number ~ n^2. Box [-10, 10]^n.
class double_sum_function : public problem {
 public:
  explicit double_sum_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "double_sum"; }

 private:
  int n_;
};

// f = sum_i 10^(6 (i - 1) / (n - 1)) (Q x)_i^2 with Q = fixed_rotation(n): an ellipsoid of
// condition number 1e6 (1 for n = 1) whose axes are not the coordinate axes. Box [-10, 10]^n.
class rotated_ellipsoid_function : public problem {
 public:
  explicit rotated_ellipsoid_function(int n);
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "rotated_ellipsoid"; }

 private:
  int n_;
  Eigen::MatrixXd q_;
  Eigen::VectorXd weights_;
};

// f = rastrigin(Q x) = 10 n + sum_i y_i^2 - 10 cos(2 pi y_i), y = Q x, Q = fixed_rotation(n):
// Rastrigin's grid of local minima turned off the axes. Box [-5.12, 5.12]^n.
class rotated_rastrigin_function : public problem {
 public:
  explicit rotated_rastrigin_function(int n);
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "rotated_rastrigin"; }

 private:
  int n_;
  Eigen::MatrixXd q_;
};

}  // namespace kinevo::ga
