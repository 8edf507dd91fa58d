// The classical test functions as ga::problems, evaluated a population (matrix of columns) at
// a time. Minimum value 0 for all of them; minimiser 0 except Rosenbrock (1, ..., 1) and
// Schwefel (420.9687..., ...). Default boxes are the customary ones.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "kinevo/ga/problem.hpp"

namespace kinevo::ga {

// f = sum x_i^2, box [-5.12, 5.12]^n.
class sphere_function : public problem {
 public:
  explicit sphere_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "sphere"; }

 private:
  int n_;
};

// f = sum 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, box [-5, 10]^n (n >= 2).
class rosenbrock_function : public problem {
 public:
  explicit rosenbrock_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "rosenbrock"; }

 private:
  int n_;
};

// f = 10 n + sum x_i^2 - 10 cos(2 pi x_i), box [-5.12, 5.12]^n.
class rastrigin_function : public problem {
 public:
  explicit rastrigin_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "rastrigin"; }

 private:
  int n_;
};

// f = -20 exp(-0.2 sqrt(mean x_i^2)) - exp(mean cos(2 pi x_i)) + 20 + e, box [-32.768, 32.768]^n.
class ackley_function : public problem {
 public:
  explicit ackley_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "ackley"; }

 private:
  int n_;
};

// f = 1 + sum x_i^2 / 4000 - prod cos(x_i / sqrt(i)), box [-600, 600]^n.
class griewank_function : public problem {
 public:
  explicit griewank_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "griewank"; }

 private:
  int n_;
};

// f = 418.9828872724338 n - sum x_i sin(sqrt|x_i|), box [-500, 500]^n.
class schwefel_function : public problem {
 public:
  explicit schwefel_function(int n) : n_(n) {}
  int dimension() const override { return n_; }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "schwefel"; }

 private:
  int n_;
};

// f = (x - c)^T Q (x - c) with Q symmetric positive definite: the shape of the Gauss'-principle
// acceleration problem; evaluated with one matrix product per population. Box [-50, 50]^n.
class quadratic_function : public problem {
 public:
  quadratic_function(Eigen::MatrixXd q, Eigen::VectorXd centre);
  // A fixed, well-conditioned 4-variable instance (benchmarks, tests).
  static quadratic_function four_variable();
  int dimension() const override { return static_cast<int>(c_.size()); }
  Eigen::VectorXd lower_bounds() const override;
  Eigen::VectorXd upper_bounds() const override;
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "quadratic"; }
  const Eigen::VectorXd& centre() const { return c_; }

 private:
  Eigen::MatrixXd q_;
  Eigen::VectorXd c_;
};

// The built-in functions by name (sphere, rosenbrock, rastrigin, ackley, griewank, schwefel,
// quadratic, and ga/detail/ill_conditioned_functions.hpp's ellipsoid, double_sum,
// rotated_ellipsoid, rotated_rastrigin); throws std::invalid_argument listing the names for an
// unknown one or a bad n.
std::unique_ptr<problem> make_test_function(const std::string& name, int n);
std::vector<std::string> test_function_names();

}  // namespace kinevo::ga
