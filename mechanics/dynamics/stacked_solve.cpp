#include "kinevo/mechanics/dynamics/detail/stacked_solve.hpp"

#include <Eigen/LU>
#include <Eigen/QR>
#include <algorithm>
#include <vector>

#include "kinevo/core/max_abs.hpp"

namespace kinevo::mechanics {

namespace {

// Below this fill a sparse factorisation pays; a dense B (n - m full rows) is well above it.
constexpr double sparse_density = 0.2;
// A sparse solution whose residual exceeds this many units of round-off of |S| |x| + |rhs| is
// not trusted (threshold pivoting near a singular block): the dense path decides.
constexpr double residual_ulps = 1e6;

}  // namespace

// Square (no redundant rows): LU with partial pivoting; with redundant rows the stacked matrix
// has more rows than columns but full column rank, and the consistent system is solved exactly
// by QR with column pivoting.
void stacked_solve::dense_factor::compute(const Eigen::MatrixXd& stacked) {
  square = stacked.rows() == stacked.cols();
  if (square) {
    lu.compute(stacked);
  } else {
    qr.compute(stacked);
  }
}

Eigen::VectorXd stacked_solve::dense_factor::solve(const Eigen::VectorXd& rhs) const {
  return square ? Eigen::VectorXd(lu.solve(rhs)) : Eigen::VectorXd(qr.solve(rhs));
}

void stacked_solve::set_basis(const Eigen::MatrixXd& basis) {
  basis_ = basis;
  const Eigen::Index k = basis.rows(), n = basis.cols();
  basis_start_.assign(1, 0);
  basis_rows_.clear();
  basis_values_.clear();
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < k; ++i) {
      if (basis(i, j) != 0.0) {
        basis_rows_.push_back(static_cast<int>(i));
        basis_values_.push_back(basis(i, j));
      }
    }
    basis_start_.push_back(static_cast<int>(basis_rows_.size()));
  }
}

void stacked_solve::factor(const Eigen::SparseMatrix<double>& jacobian) {
  sparse_ = factor_sparse(jacobian);
  if (sparse_) return;
  // A dense B on a large sparse Phi_q (qtz-state's chains): block elimination on a sparse block
  // of Phi_q (stacked_schur.hpp) instead of the dense LU of the whole.
  schur_ = stacked_schur::suits(jacobian, basis_) && schur_solver_.factor(jacobian, basis_);
  if (schur_) {
    schur_jacobian_ = jacobian;
    largest_ = std::max(jacobian.coeffs().cwiseAbs().maxCoeff(), basis_.cwiseAbs().maxCoeff());
    return;
  }
  stacked_dense_.resize(jacobian.rows() + basis_.rows(), jacobian.cols());
  stacked_dense_.topRows(jacobian.rows()) = Eigen::MatrixXd(jacobian);
  stacked_dense_.bottomRows(basis_.rows()) = basis_;
  // Factored once here for every solve until the next factor() (each solve factored it before).
  dense_.compute(stacked_dense_);
}

void stacked_solve::assemble(const Eigen::SparseMatrix<double>& jacobian) {
  const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
  const auto nonzeros = jacobian.nonZeros() + static_cast<Eigen::Index>(basis_rows_.size());
  stacked_sparse_.resize(n, n);
  stacked_sparse_.resizeNonZeros(nonzeros);
  int* outer = stacked_sparse_.outerIndexPtr();
  int* inner = stacked_sparse_.innerIndexPtr();
  double* values = stacked_sparse_.valuePtr();
  int at = 0;
  for (Eigen::Index j = 0; j < n; ++j) {
    outer[j] = at;
    // Phi_q's rows (its compressed columns are sorted, stored zeros included), then B's.
    for (Eigen::SparseMatrix<double>::InnerIterator it(jacobian, j); it; ++it, ++at) {
      inner[at] = static_cast<int>(it.row());
      values[at] = it.value();
    }
    const auto jj = static_cast<std::size_t>(j);
    for (int e = basis_start_[jj]; e < basis_start_[jj + 1]; ++e, ++at) {
      const auto ee = static_cast<std::size_t>(e);
      inner[at] = static_cast<int>(m) + basis_rows_[ee];
      values[at] = basis_values_[ee];
    }
  }
  outer[n] = at;
}

bool stacked_solve::factor_sparse(const Eigen::SparseMatrix<double>& jacobian) {
  const Eigen::Index m = jacobian.rows(), k = basis_.rows(), n = jacobian.cols();
  if (m + k != n || n == 0 || basis_.cols() != n) return false;
  const auto nonzeros =
      static_cast<double>(jacobian.nonZeros() + static_cast<Eigen::Index>(basis_rows_.size()));
  if (nonzeros > sparse_density * static_cast<double>(n) * static_cast<double>(n)) return false;
  assemble(jacobian);
  largest_ = stacked_sparse_.coeffs().cwiseAbs().maxCoeff();
  // The pattern is that of Phi_q and the basis, fixed between re-bases: the fill-reducing
  // ordering and the symbolic analysis are done once for it.
  if (!pattern_.matches(stacked_sparse_)) {
    lu_.analyzePattern(stacked_sparse_);
    pattern_.remember(stacked_sparse_);
  }
  lu_.factorize(stacked_sparse_);
  return lu_.info() == Eigen::Success;
}

// The block elimination's solution, checked like the sparse LU's: beyond round-off, the dense
// LU of the whole decides, and D is chosen again at the next factorisation.
Eigen::VectorXd stacked_solve::solve_schur(const Eigen::VectorXd& rhs) const {
  const Eigen::Index m = schur_jacobian_.rows();
  Eigen::VectorXd x = schur_solver_.solve(rhs);
  Eigen::VectorXd residual(rhs.size());
  residual.head(m) = schur_jacobian_ * x - rhs.head(m);
  residual.tail(rhs.size() - m) = basis_ * x - rhs.tail(rhs.size() - m);
  const double scale = largest_ * max_abs(x) + max_abs(rhs);
  if (x.allFinite() &&
      max_abs(residual) <= residual_ulps * Eigen::NumTraits<double>::epsilon() * scale) {
    return x;
  }
  schur_solver_.choose_again();
  Eigen::MatrixXd stacked(rhs.size(), schur_jacobian_.cols());
  stacked.topRows(m) = Eigen::MatrixXd(schur_jacobian_);
  stacked.bottomRows(basis_.rows()) = basis_;
  dense_factor fallback;
  fallback.compute(stacked);
  return fallback.solve(rhs);
}

Eigen::VectorXd stacked_solve::solve(const Eigen::VectorXd& rhs) const {
  if (schur_) return solve_schur(rhs);
  if (!sparse_) return dense_.solve(rhs);
  Eigen::VectorXd x = lu_.solve(rhs);
  const Eigen::VectorXd residual = stacked_sparse_ * x - rhs;
  const double scale = largest_ * max_abs(x) + max_abs(rhs);
  if (lu_.info() == Eigen::Success && x.allFinite() &&
      max_abs(residual) <= residual_ulps * Eigen::NumTraits<double>::epsilon() * scale) {
    return x;
  }
  // The sparse factorisation is not trusted here: the dense path of before decides.
  dense_factor fallback;
  fallback.compute(Eigen::MatrixXd(stacked_sparse_));
  return fallback.solve(rhs);
}

}  // namespace kinevo::mechanics
