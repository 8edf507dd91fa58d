#include "kinevo/ga/test_functions.hpp"

#include <Eigen/Cholesky>
#include <cmath>
#include <stdexcept>

#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {

namespace {
constexpr double two_pi = 6.283185307179586;
Eigen::VectorXd constant(int n, double v) {
  return Eigen::VectorXd::Constant(n, v);
}
}  // namespace

Eigen::VectorXd sphere_function::lower_bounds() const {
  return constant(n_, -5.12);
}
Eigen::VectorXd sphere_function::upper_bounds() const {
  return constant(n_, 5.12);
}
void sphere_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values) const {
  values = x.colwise().squaredNorm().transpose();
}

Eigen::VectorXd rosenbrock_function::lower_bounds() const {
  return constant(n_, -5.0);
}
Eigen::VectorXd rosenbrock_function::upper_bounds() const {
  return constant(n_, 10.0);
}
void rosenbrock_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                   Eigen::Ref<Eigen::VectorXd> values) const {
  const auto head = x.topRows(n_ - 1).array();
  const auto tail = x.bottomRows(n_ - 1).array();
  values =
      (100.0 * (tail - head.square()).square() + (1.0 - head).square()).colwise().sum().transpose();
}

Eigen::VectorXd rastrigin_function::lower_bounds() const {
  return constant(n_, -5.12);
}
Eigen::VectorXd rastrigin_function::upper_bounds() const {
  return constant(n_, 5.12);
}
void rastrigin_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                  Eigen::Ref<Eigen::VectorXd> values) const {
  const auto a = x.array();
  values = ((a.square() - 10.0 * (two_pi * a).cos()).colwise().sum() + 10.0 * n_).transpose();
}

Eigen::VectorXd ackley_function::lower_bounds() const {
  return constant(n_, -32.768);
}
Eigen::VectorXd ackley_function::upper_bounds() const {
  return constant(n_, 32.768);
}
void ackley_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values) const {
  const auto a = x.array();
  const double inv_n = 1.0 / n_;
  for (Eigen::Index i = 0; i < x.cols(); ++i) {
    const double s2 = a.col(i).square().sum() * inv_n;
    const double sc = (two_pi * a.col(i)).cos().sum() * inv_n;
    values[i] = -20.0 * std::exp(-0.2 * std::sqrt(s2)) - std::exp(sc) + 20.0 + std::exp(1.0);
  }
}

Eigen::VectorXd griewank_function::lower_bounds() const {
  return constant(n_, -600.0);
}
Eigen::VectorXd griewank_function::upper_bounds() const {
  return constant(n_, 600.0);
}
void griewank_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                 Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index i = 0; i < x.cols(); ++i) {
    double sum = 0.0;
    double prod = 1.0;
    for (int j = 0; j < n_; ++j) {
      const double v = x(j, i);
      sum += v * v;
      prod *= std::cos(v / std::sqrt(static_cast<double>(j + 1)));
    }
    values[i] = 1.0 + sum / 4000.0 - prod;
  }
}

Eigen::VectorXd schwefel_function::lower_bounds() const {
  return constant(n_, -500.0);
}
Eigen::VectorXd schwefel_function::upper_bounds() const {
  return constant(n_, 500.0);
}
void schwefel_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                 Eigen::Ref<Eigen::VectorXd> values) const {
  const auto a = x.array();
  values = (418.9828872724338 * n_ - (a * a.abs().sqrt().sin()).colwise().sum()).transpose();
}

quadratic_function::quadratic_function(Eigen::MatrixXd q, Eigen::VectorXd centre)
    : q_(std::move(q)), c_(std::move(centre)) {
  if (q_.rows() != c_.size() || q_.cols() != c_.size() || c_.size() == 0) {
    throw io::option_error("q", "of a quadratic must be n x n and the centre of size n >= 1");
  }
  if (Eigen::LLT<Eigen::MatrixXd>(q_).info() != Eigen::Success) {
    throw io::option_error("q", "of a quadratic must be symmetric positive definite");
  }
}

quadratic_function quadratic_function::four_variable() {
  // A mass-matrix-like SPD Q and a minimiser inside [-50, 50]^4 (shape of the Gauss'-principle
  // acceleration problem of a planar double pendulum).
  Eigen::MatrixXd q(4, 4);
  q << 2.0, 0.3, 0.0, 0.1,  //
      0.3, 1.5, 0.2, 0.0,   //
      0.0, 0.2, 1.0, 0.25,  //
      0.1, 0.0, 0.25, 0.8;
  Eigen::VectorXd c(4);
  c << 0.0, -9.8696044010893586, 0.0, -19.739208802178717;
  return quadratic_function(q, c);
}

Eigen::VectorXd quadratic_function::lower_bounds() const {
  return constant(dimension(), -50.0);
}
Eigen::VectorXd quadratic_function::upper_bounds() const {
  return constant(dimension(), 50.0);
}
void quadratic_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                  Eigen::Ref<Eigen::VectorXd> values) const {
  // Written out per column: no temporaries, so evaluation never allocates.
  const int n = dimension();
  for (Eigen::Index i = 0; i < x.cols(); ++i) {
    double v = 0.0;
    for (int k = 0; k < n; ++k) {
      const double dk = x(k, i) - c_[k];
      double row = 0.0;
      for (int j = 0; j < n; ++j) row += q_(j, k) * (x(j, i) - c_[j]);
      v += dk * row;
    }
    values[i] = v;
  }
}

std::vector<std::string> test_function_names() {
  return {"sphere",     "rosenbrock",        "rastrigin",        "ackley",
          "griewank",   "schwefel",          "quadratic",        "ellipsoid",
          "double_sum", "rotated_ellipsoid", "rotated_rastrigin"};
}

std::unique_ptr<problem> make_test_function(const std::string& name, int n) {
  if (n < 1)
    throw io::option_error("dimension", "must be at least 1 (got " + std::to_string(n) + ")");
  if (name == "sphere") return std::make_unique<sphere_function>(n);
  if (name == "rosenbrock") {
    if (n < 2) throw io::option_error("dimension", "must be at least 2 for rosenbrock (got 1)");
    return std::make_unique<rosenbrock_function>(n);
  }
  if (name == "rastrigin") return std::make_unique<rastrigin_function>(n);
  if (name == "ackley") return std::make_unique<ackley_function>(n);
  if (name == "griewank") return std::make_unique<griewank_function>(n);
  if (name == "schwefel") return std::make_unique<schwefel_function>(n);
  if (name == "ellipsoid") return std::make_unique<ellipsoid_function>(n);
  if (name == "double_sum") return std::make_unique<double_sum_function>(n);
  if (name == "rotated_ellipsoid") return std::make_unique<rotated_ellipsoid_function>(n);
  if (name == "rotated_rastrigin") return std::make_unique<rotated_rastrigin_function>(n);
  if (name == "quadratic") {
    if (n == 4) return std::make_unique<quadratic_function>(quadratic_function::four_variable());
    // Diagonal weights 1..n around (1, ..., 1).
    Eigen::VectorXd d = Eigen::VectorXd::LinSpaced(n, 1.0, static_cast<double>(n));
    return std::make_unique<quadratic_function>(Eigen::MatrixXd(d.asDiagonal()),
                                                Eigen::VectorXd::Ones(n));
  }
  std::string names;
  for (const auto& s : test_function_names()) names += (names.empty() ? "" : ", ") + s;
  throw io::option_error("function", "'" + name + "' is unknown; use one of: " + names);
}

}  // namespace kinevo::ga
