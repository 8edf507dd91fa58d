#include "kinevo/gauss/gradient_baselines.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/gauss/gauss_objective.hpp"
#include "kinevo/gauss/mass_scaling.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::gauss {

using mechanics::acceleration_result;
using mechanics::constrained_system;
using mechanics::solve_status;

std::string to_string(gradient_method m) {
  return m == gradient_method::newton ? "newton" : "cg";
}

void gradient_baseline_options::validate() const {
  auto fail = [](const std::string& field, const std::string& requirement) {
    throw io::option_error(field, requirement);
  };
  if (!(weight > 0.0) || !std::isfinite(weight)) fail("weight", "must be positive and finite");
  if (max_outer < 1) fail("max_outer", "must be at least 1");
  if (!(inner_tolerance > 0.0 && inner_tolerance < 1.0))
    fail("inner_tolerance", "must be in (0, 1)");
  if (max_inner_per_coordinate < 1) fail("max_inner_per_coordinate", "must be at least 1");
  if (!(tolerance > 0.0) || !std::isfinite(tolerance)) fail("tolerance", "must be positive");
}

namespace {

// H = M + 2 A^T W A, sparse.
Eigen::SparseMatrix<double> hessian(const gauss_terms& t) {
  const Eigen::SparseMatrix<double> wa = t.weights.asDiagonal() * t.jacobian_sparse;
  Eigen::SparseMatrix<double> h =
      t.mass_sparse + 2.0 * Eigen::SparseMatrix<double>(t.jacobian_sparse.transpose() * wa);
  h.makeCompressed();
  return h;
}

// H's diagonal blocks (M's block structure), each factored: the block-Jacobi preconditioner.
class block_jacobi {
 public:
  block_jacobi(const Eigen::SparseMatrix<double>& h, const mass_scaling& ms) : blocks_(ms.blocks) {
    for (const auto& [first, size] : blocks_) {
      Eigen::MatrixXd b(size, size);
      for (int i = 0; i < size; ++i) {
        for (int j = 0; j < size; ++j) b(i, j) = h.coeff(first + i, first + j);
      }
      factors_.emplace_back(b);
    }
  }
  Eigen::VectorXd apply(const Eigen::VectorXd& r) const {
    Eigen::VectorXd z(r.size());
    for (std::size_t k = 0; k < blocks_.size(); ++k) {
      const auto [first, size] = blocks_[k];
      z.segment(first, size) = factors_[k].solve(r.segment(first, size));
    }
    return z;
  }

 private:
  std::vector<std::pair<int, int>> blocks_;
  std::vector<Eigen::LLT<Eigen::MatrixXd>> factors_;
};

// Preconditioned CG on H a = rhs from a, until |r| <= tol |r0|; returns the products used.
long long conjugate_gradients(const Eigen::SparseMatrix<double>& h, const block_jacobi& p,
                              const Eigen::VectorXd& rhs, double tol, int max_iterations,
                              Eigen::VectorXd& a) {
  Eigen::VectorXd r = rhs - h * a;  // the gradient, negated
  long long products = 1;
  const double stop = tol * r.norm();
  Eigen::VectorXd z = p.apply(r);
  Eigen::VectorXd d = z;
  double rz = r.dot(z);
  for (int k = 0; k < max_iterations && r.norm() > stop && rz > 0.0; ++k) {
    const Eigen::VectorXd hd = h * d;
    ++products;
    const double alpha = rz / d.dot(hd);
    a += alpha * d;
    r -= alpha * hd;
    z = p.apply(r);
    const double rz_next = r.dot(z);
    d = z + (rz_next / rz) * d;
    rz = rz_next;
  }
  return products;
}

}  // namespace

acceleration_result solve_by_gradients(const constrained_system& system,
                                       const gradient_baseline_options& options) {
  options.validate();
  const int n = system.coordinates();
  const int m = system.constraints();
  const mass_scaling ms = mass_scaling::of(system);
  gauss_terms t =
      gauss_terms::from_system(system, Eigen::VectorXd::Zero(m), Eigen::VectorXd::Zero(m));
  t.weights = options.weight * row_scales(t.jacobian_sparse, ms);
  const Eigen::SparseMatrix<double> h = hessian(t);
  const block_jacobi p(h, ms);
  const Eigen::VectorXd base = t.mass_sparse * t.free_accel + 2.0 * (t.jacobian_sparse.transpose() *
                                                                     t.weights.cwiseProduct(t.rhs));
  acceleration_result out;
  Eigen::VectorXd a = t.free_accel;
  bool converged = false;
  double change = 0.0;
  for (int k = 0; k < options.max_outer && !converged; ++k) {
    const Eigen::VectorXd rhs = base - t.jacobian_sparse.transpose() * t.multipliers;
    const Eigen::VectorXd last = a;
    if (options.method == gradient_method::newton) {
      const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(h);  // per outer iteration
      a += llt.solve(rhs - h * a);
      out.evaluations += 1;  // one gradient
    } else {
      out.evaluations += conjugate_gradients(h, p, rhs, options.inner_tolerance,
                                             options.max_inner_per_coordinate * n, a);
    }
    const Eigen::VectorXd residual = t.jacobian_sparse * a - t.rhs;
    t.multipliers += 2.0 * t.weights.cwiseProduct(residual);
    out.runs = k + 1;
    change = max_abs(a - last);
    const double tol = options.tolerance * std::max(1.0, max_abs(a));
    converged = k > 0 && change <= tol && t.residual_within(residual, tol);
  }
  out.acceleration = a;
  out.constraint_force = system.mass * (a - t.free_accel);
  out.rank = -1;
  out.status = converged ? solve_status::ok : solve_status::not_converged;
  if (!converged) {
    out.message = fmt::format("{}: not converged after {} outer iterations (last change {:.3g})",
                              to_string(options.method), out.runs, change);
  }
  return out;
}

}  // namespace kinevo::gauss
