// Gauss' principle as a box-bounded GA problem: the penalised objective
//   Z1(a) = 1/2 (a - a_f)^T M (a - a_f) + (A a - b)^T W (A a - b)
// (generalized-inverse dissertation (GIGSP), eq. 5.6), optionally with the augmented-Lagrangian
// term lambda^T (A a - b), evaluated for a whole population with matrix products.
//
// Values are returned relative to the run's centre c (a = c + d):
//   Z1(c + d) - Z1(c) = g^T d + 1/2 d^T H d,  H = M + 2 A^T W A,
//   g = M (c - a_f) + A^T lambda + 2 A^T W (A c - b).
// The rewrite is exact; it matters because comparing absolute Z1 values (~630 for the double
// pendulum) cannot resolve accelerations better than about sqrt(eps Z1 / |M|) ~ 1e-7.
//
// Evaluation is sparse: with y = B d, d^T H' d = y^T M y + 2 (A y)^T W (A y), so one candidate
// costs O(nnz(B) + nnz(M) + nnz(A)) and H is never formed (except for a dense basis: the
// exact-Hessian ablation).
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "kinevo/ga/problem.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::gauss {

using mechanics::constrained_system;

// The numbers of one Gauss problem, independent of any search box.
struct gauss_terms {
  Eigen::MatrixXd mass;                         // M (n x n)
  Eigen::VectorXd free_accel;                   // a_f = M^-1 f
  Eigen::MatrixXd jacobian;                     // A (m x n)
  Eigen::VectorXd rhs;                          // b (m)
  Eigen::VectorXd weights;                      // diag(W) (m), all > 0
  Eigen::VectorXd multipliers;                  // lambda (m); zero for the plain penalty of eq. 5.6
  Eigen::SparseMatrix<double> mass_sparse;      // M, its structural non-zeros
  Eigen::SparseMatrix<double> jacobian_sparse;  // A, likewise

  // a_f from M and f (Cholesky; the diagonal fast path when M is diagonal). Throws
  // std::invalid_argument when M is not positive definite.
  static gauss_terms from_system(const constrained_system& system, Eigen::VectorXd weights,
                                 Eigen::VectorXd multipliers);

  // Z = 1/2 (a - a_f)^T M (a - a_f), eq. 5.3.
  double gauss_function(const Eigen::VectorXd& a) const;
  // Z1 of eq. 5.6 (without the multiplier term).
  double penalised(const Eigen::VectorXd& a) const;
  // Z1 plus lambda^T (A a - b): what the GA minimises.
  double augmented(const Eigen::VectorXd& a) const;
  // The gradient of `augmented` at a: M (a - a_f) + A^T lambda + 2 A^T W (A a - b), O(nnz).
  Eigen::VectorXd gradient(const Eigen::VectorXd& a) const;
  // The exact minimiser of `augmented` (H a = M a_f - A^T lambda + 2 A^T W b), for reports
  // and checks; the GA never uses it (a counted coupled factorisation).
  Eigen::VectorXd minimiser() const;
  // True when every |A_i a - b_i| (`residual`) is at most tol * sum_j |A_ij|: what an
  // acceleration error of at most tol could leave.
  bool residual_within(const Eigen::VectorXd& residual, double tol) const;
};

// The GA's decision vector x is either the acceleration itself (a = x, box centre +- half_width)
// or, with an invertible `basis` B, coordinates along B around the centre (a = centre + B x,
// box +- half_width around 0): the principal axes (orthonormal) or the whitened ones (scaled by
// lambda^-1/2, so that B^T H B = I). Searching along the principal axes of Z1 (the eigenvectors of
// H) makes the objective separable, which the GA's coordinate-wise crossover and mutation need once
// the constraint rows are not aligned with the coordinate axes; the objective's values are
// unchanged by the rotation.
class gauss_objective final : public ga::problem {
 public:
  gauss_objective(const gauss_terms& terms, const Eigen::VectorXd& centre,
                  const Eigen::VectorXd& half_width, const Eigen::MatrixXd& basis = {});
  // A sparse basis (the mass scaling of mass_scaling.hpp): evaluation in O(nnz).
  gauss_objective(const gauss_terms& terms, const Eigen::VectorXd& centre,
                  const Eigen::VectorXd& half_width, const Eigen::SparseMatrix<double>& basis);
  // The principal axes of Z1 at these terms: eigenvectors of H = M + 2 A^T W A (an oracle:
  // counted as a coupled factorisation).
  static Eigen::MatrixXd principal_axes(const gauss_terms& terms);
  // The acceleration of a decision vector.
  Eigen::VectorXd acceleration_of(const Eigen::VectorXd& x) const;

  int dimension() const override { return static_cast<int>(centre_.size()); }
  Eigen::VectorXd lower_bounds() const override { return search_centre() - half_width_; }
  Eigen::VectorXd upper_bounds() const override { return search_centre() + half_width_; }
  // The centre in decision coordinates (the acceleration centre, or 0 with a basis).
  Eigen::VectorXd search_centre() const;
  // values(j) = augmented Z1(x.col(j)) - augmented Z1(centre), computed without cancellation.
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x,
                Eigen::Ref<Eigen::VectorXd> values) const override;
  std::string name() const override { return "gauss-z1"; }

  const Eigen::VectorXd& centre() const { return centre_; }
  // Augmented Z1 at the centre: add to a relative value to get the absolute one.
  double value_at_centre() const { return value_at_centre_; }

 private:
  void check_box(const gauss_terms& terms) const;
  void evaluate_sparse(const Eigen::MatrixXd& d, Eigen::Ref<Eigen::VectorXd> values) const;

  Eigen::VectorXd centre_;
  Eigen::VectorXd half_width_;
  Eigen::MatrixXd basis_;     // dense B (empty: identity or the sparse basis)
  Eigen::MatrixXd hessian_;   // B^T H B for a dense basis only
  Eigen::VectorXd gradient_;  // g at the centre, or B^T g
  bool sparse_ = false;       // evaluated through the sparse terms below
  bool scaled_ = false;       // sparse_basis_ is used (otherwise x = a)
  Eigen::SparseMatrix<double> sparse_basis_;
  Eigen::SparseMatrix<double> mass_;      // M
  Eigen::SparseMatrix<double> jacobian_;  // A
  Eigen::VectorXd weights_;               // diag(W)
  double value_at_centre_ = 0.0;
};

}  // namespace kinevo::gauss
