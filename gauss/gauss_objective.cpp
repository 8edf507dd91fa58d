#include "kinevo/gauss/gauss_objective.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <stdexcept>
#include <string>

#include "kinevo/gauss/detail/coupled_factorisations.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::gauss {

gauss_terms gauss_terms::from_system(const constrained_system& system, Eigen::VectorXd weights,
                                     Eigen::VectorXd multipliers) {
  const int n = system.coordinates();
  const int m = system.constraints();
  if (system.mass.rows() != n || system.mass.cols() != n || system.jacobian.rows() != m ||
      (m > 0 && system.jacobian.cols() != n)) {
    throw io::option_error("system", "must have sizes of M, f, A, b that agree (gauss objective)");
  }
  if (weights.size() != m || multipliers.size() != m) {
    throw io::option_error("weights",
                           "and multipliers must have one entry per constraint (gauss objective)");
  }
  gauss_terms t;
  t.mass = system.mass;
  if (system.mass_is_diagonal) {
    const Eigen::VectorXd d = system.mass.diagonal();
    if ((d.array() <= 0.0).any()) {
      throw io::option_error("mass", "matrix must be positive definite (gauss objective)");
    }
    t.free_accel = system.force.cwiseQuotient(d);
  } else {
    Eigen::LLT<Eigen::MatrixXd> llt(system.mass);
    if (llt.info() != Eigen::Success) {
      throw io::option_error("mass", "matrix must be positive definite (gauss objective)");
    }
    t.free_accel = llt.solve(system.force);
  }
  t.jacobian = m > 0 ? system.jacobian : Eigen::MatrixXd(0, n);
  t.rhs = system.rhs;
  t.weights = std::move(weights);
  t.multipliers = std::move(multipliers);
  t.mass_sparse = t.mass.sparseView();
  t.jacobian_sparse = t.jacobian.sparseView();
  return t;
}

Eigen::VectorXd gauss_terms::gradient(const Eigen::VectorXd& a) const {
  const Eigen::VectorXd r = jacobian_sparse * a - rhs;
  const Eigen::VectorXd e = a - free_accel;
  const Eigen::VectorXd lagrange = multipliers + 2.0 * weights.cwiseProduct(r);
  return mass_sparse * e + jacobian_sparse.transpose() * lagrange;
}

double gauss_terms::gauss_function(const Eigen::VectorXd& a) const {
  const Eigen::VectorXd e = a - free_accel;
  return 0.5 * e.dot(mass * e);
}

double gauss_terms::penalised(const Eigen::VectorXd& a) const {
  const Eigen::VectorXd r = jacobian * a - rhs;
  return gauss_function(a) + r.dot(weights.cwiseProduct(r));
}

double gauss_terms::augmented(const Eigen::VectorXd& a) const {
  const Eigen::VectorXd r = jacobian * a - rhs;
  return penalised(a) + multipliers.dot(r);
}

bool gauss_terms::residual_within(const Eigen::VectorXd& residual, double tol) const {
  for (Eigen::Index i = 0; i < residual.size(); ++i) {
    if (std::abs(residual(i)) > tol * jacobian.row(i).cwiseAbs().sum()) return false;
  }
  return true;
}

Eigen::VectorXd gauss_terms::minimiser() const {
  note_coupled_factorisation();
  const Eigen::MatrixXd h = mass + 2.0 * jacobian.transpose() * weights.asDiagonal() * jacobian;
  const Eigen::VectorXd rhs_h = mass * free_accel - jacobian.transpose() * multipliers +
                                2.0 * jacobian.transpose() * weights.cwiseProduct(rhs);
  return h.llt().solve(rhs_h);
}

Eigen::MatrixXd gauss_objective::principal_axes(const gauss_terms& terms) {
  note_coupled_factorisation();
  const Eigen::MatrixXd h =
      terms.mass + 2.0 * terms.jacobian.transpose() * terms.weights.asDiagonal() * terms.jacobian;
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(h).eigenvectors();
}

Eigen::VectorXd gauss_objective::search_centre() const {
  return basis_.size() == 0 && !scaled_ ? centre_ : Eigen::VectorXd::Zero(centre_.size());
}

Eigen::VectorXd gauss_objective::acceleration_of(const Eigen::VectorXd& x) const {
  if (scaled_) return centre_ + sparse_basis_ * x;
  return basis_.size() == 0 ? x : Eigen::VectorXd(centre_ + basis_ * x);
}

void gauss_objective::check_box(const gauss_terms& terms) const {
  if (centre_.size() != terms.mass.rows() || half_width_.size() != centre_.size() ||
      !(half_width_.array() > 0.0).all() || !centre_.allFinite() || !half_width_.allFinite()) {
    throw io::option_error("centre",
                           "and half_width must be finite, with a positive half width for "
                           "every coordinate (gauss objective)");
  }
}

gauss_objective::gauss_objective(const gauss_terms& terms, const Eigen::VectorXd& centre,
                                 const Eigen::VectorXd& half_width,
                                 const Eigen::SparseMatrix<double>& basis)
    : centre_(centre),
      half_width_(half_width),
      sparse_(true),
      scaled_(true),
      sparse_basis_(basis),
      mass_(terms.mass_sparse),
      jacobian_(terms.jacobian_sparse),
      weights_(terms.weights) {
  if (basis.rows() != centre.size() || basis.cols() != centre.size()) {
    throw io::option_error("basis", "must be n x n (gauss objective)");
  }
  check_box(terms);
  gradient_ = sparse_basis_.transpose() * terms.gradient(centre_);
  value_at_centre_ = terms.augmented(centre_);
}

gauss_objective::gauss_objective(const gauss_terms& terms, const Eigen::VectorXd& centre,
                                 const Eigen::VectorXd& half_width, const Eigen::MatrixXd& basis)
    : centre_(centre), half_width_(half_width), basis_(basis) {
  if (basis.size() != 0 && (basis.rows() != centre.size() || basis.cols() != centre.size())) {
    throw io::option_error("basis", "must be n x n (gauss objective)");
  }
  check_box(terms);
  if (basis.size() == 0) {  // x = a: the sparse evaluation, d = x - c
    sparse_ = true;
    mass_ = terms.mass_sparse;
    jacobian_ = terms.jacobian_sparse;
    weights_ = terms.weights;
    gradient_ = terms.gradient(centre_);
    value_at_centre_ = terms.augmented(centre_);
    return;
  }
  const Eigen::MatrixXd& a = terms.jacobian;
  const Eigen::VectorXd residual = a * centre_ - terms.rhs;
  hessian_ = terms.mass + 2.0 * a.transpose() * terms.weights.asDiagonal() * a;
  gradient_ = terms.mass * (centre_ - terms.free_accel) + a.transpose() * terms.multipliers +
              2.0 * a.transpose() * terms.weights.cwiseProduct(residual);
  value_at_centre_ = terms.augmented(centre_);
  if (basis_.size() != 0) {
    hessian_ = basis_.transpose() * hessian_ * basis_;
    gradient_ = basis_.transpose() * gradient_;
  }
}

namespace {

// The temporaries of an evaluation, kept per thread: islands on threads share one objective,
// and the g3 model evaluates two candidates at a time, so allocating them on every call (six
// allocations for two 50 ns evaluations) cost more than the arithmetic. Same types and shapes
// as plain locals, so the values are those of a fresh evaluation, bit for bit.
struct evaluation_scratch {
  Eigen::MatrixXd d, y, my, ay, hd;
  Eigen::VectorXd curvature_m, curvature_a;
};
thread_local evaluation_scratch scratch;

}  // namespace

void gauss_objective::evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                               Eigen::Ref<Eigen::VectorXd> values) const {
  // d = x - c per column; g^T d + 1/2 d^T H d as two matrix products over the population.
  Eigen::MatrixXd& d = scratch.d;
  if (basis_.size() == 0 && !scaled_) {
    d = x.colwise() - centre_;
  } else {
    d = x;
  }
  if (sparse_) {
    evaluate_sparse(d, values);
    return;
  }
  // Coefficient-wise (lazy) products: a blocked GEMM rounds a column differently depending on
  // how many columns share its panel, and islands evaluate batches of different sizes on
  // threads and on MPI ranks; a candidate's value must not depend on its batch.
  Eigen::MatrixXd& hd = scratch.hd;
  hd.noalias() = hessian_.lazyProduct(d);
  values.noalias() = (gradient_.transpose().lazyProduct(d)).transpose();
  values += 0.5 * d.cwiseProduct(hd).colwise().sum().transpose();
}

// g^T d + 1/2 (y^T M y + 2 (A y)^T W (A y)) with y = B d: sparse products column by column, so
// a candidate's value does not depend on the batch it is evaluated in.
void gauss_objective::evaluate_sparse(const Eigen::MatrixXd& d,
                                      Eigen::Ref<Eigen::VectorXd> values) const {
  evaluation_scratch& s = scratch;
  const Eigen::MatrixXd* y = &d;
  if (scaled_) {
    s.y.noalias() = sparse_basis_ * d;
    y = &s.y;
  }
  s.my.noalias() = mass_ * *y;
  s.ay.noalias() = jacobian_ * *y;
  values.noalias() = (gradient_.transpose().lazyProduct(d)).transpose();
  s.curvature_m = y->cwiseProduct(s.my).colwise().sum().transpose();
  values += 0.5 * s.curvature_m;
  if (s.ay.rows() > 0) {
    s.curvature_a =
        (s.ay.cwiseAbs2().array().colwise() * weights_.array()).colwise().sum().transpose();
    values += s.curvature_a;
  }
}

}  // namespace kinevo::gauss
