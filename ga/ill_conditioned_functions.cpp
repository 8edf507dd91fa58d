#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/core/householder_q.hpp"

#include <Eigen/QR>
#include <cmath>
#include <numbers>

namespace kinevo::ga {

Eigen::MatrixXd fixed_rotation(int n) {
  Eigen::MatrixXd a(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) a(i, j) = std::sin(1.0 + i + static_cast<double>(n) * j);
  }
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
  Eigen::MatrixXd q = householder_q(qr);
  for (int j = 0; j < n; ++j) {
    if (qr.matrixQR()(j, j) < 0.0) q.col(j) = -q.col(j);
  }
  return q;
}

Eigen::VectorXd ellipsoid_function::lower_bounds() const {
  return Eigen::VectorXd::Constant(n_, -10.0);
}
Eigen::VectorXd ellipsoid_function::upper_bounds() const {
  return Eigen::VectorXd::Constant(n_, 10.0);
}
void ellipsoid_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                  Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    double v = 0.0;
    for (int i = 0; i < n_; ++i) v += (i + 1) * x(i, c) * x(i, c);
    values[c] = v;
  }
}

Eigen::VectorXd double_sum_function::lower_bounds() const {
  return Eigen::VectorXd::Constant(n_, -10.0);
}
Eigen::VectorXd double_sum_function::upper_bounds() const {
  return Eigen::VectorXd::Constant(n_, 10.0);
}
void double_sum_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                   Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    double partial = 0.0;
    double v = 0.0;
    for (int i = 0; i < n_; ++i) {
      partial += x(i, c);
      v += partial * partial;
    }
    values[c] = v;
  }
}

rotated_ellipsoid_function::rotated_ellipsoid_function(int n)
    : n_(n), q_(fixed_rotation(n)), weights_(n) {
  for (int i = 0; i < n; ++i) weights_[i] = n > 1 ? std::pow(1e6, i / (n - 1.0)) : 1.0;
}
Eigen::VectorXd rotated_ellipsoid_function::lower_bounds() const {
  return Eigen::VectorXd::Constant(n_, -10.0);
}
Eigen::VectorXd rotated_ellipsoid_function::upper_bounds() const {
  return Eigen::VectorXd::Constant(n_, 10.0);
}
void rotated_ellipsoid_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                          Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    double v = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double y = q_.row(i).dot(x.col(c));
      v += weights_[i] * y * y;
    }
    values[c] = v;
  }
}

rotated_rastrigin_function::rotated_rastrigin_function(int n) : n_(n), q_(fixed_rotation(n)) {}
Eigen::VectorXd rotated_rastrigin_function::lower_bounds() const {
  return Eigen::VectorXd::Constant(n_, -5.12);
}
Eigen::VectorXd rotated_rastrigin_function::upper_bounds() const {
  return Eigen::VectorXd::Constant(n_, 5.12);
}
void rotated_rastrigin_function::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                          Eigen::Ref<Eigen::VectorXd> values) const {
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    double v = 10.0 * n_;
    for (int i = 0; i < n_; ++i) {
      const double y = q_.row(i).dot(x.col(c));
      v += y * y - 10.0 * std::cos(2.0 * std::numbers::pi * y);
    }
    values[c] = v;
  }
}

}  // namespace kinevo::ga
