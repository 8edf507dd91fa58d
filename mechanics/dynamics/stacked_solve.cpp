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
// not trusted (SparseLU's threshold pivoting near a singular block): the dense path decides.
constexpr double residual_ulps = 1e6;

// Square (no redundant rows): LU with partial pivoting; with redundant rows the stacked matrix
// has more rows than columns but full column rank, and the consistent system is solved exactly
// by QR with column pivoting.
Eigen::VectorXd solve_dense(const Eigen::MatrixXd& stacked, const Eigen::VectorXd& rhs) {
  if (stacked.rows() == stacked.cols()) return stacked.partialPivLu().solve(rhs);
  return stacked.colPivHouseholderQr().solve(rhs);
}

}  // namespace

void stacked_solve::factor(const Eigen::SparseMatrix<double>& jacobian,
                           const Eigen::MatrixXd& basis) {
  sparse_ = factor_sparse(jacobian, basis);
  if (sparse_) return;
  stacked_dense_.resize(jacobian.rows() + basis.rows(), jacobian.cols());
  stacked_dense_.topRows(jacobian.rows()) = Eigen::MatrixXd(jacobian);
  stacked_dense_.bottomRows(basis.rows()) = basis;
}

bool stacked_solve::factor_sparse(const Eigen::SparseMatrix<double>& jacobian,
                                  const Eigen::MatrixXd& basis) {
  const Eigen::Index m = jacobian.rows(), k = basis.rows(), n = jacobian.cols();
  if (m + k != n || n == 0) return false;
  const auto basis_nonzeros = (basis.array() != 0.0).count();
  const auto nonzeros = static_cast<double>(jacobian.nonZeros() + basis_nonzeros);
  if (nonzeros > sparse_density * static_cast<double>(n) * static_cast<double>(n)) return false;
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(nonzeros));
  for (Eigen::Index j = 0; j < jacobian.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(jacobian, j); it; ++it) {
      entries.emplace_back(static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
    }
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < k; ++i) {
      if (basis(i, j) != 0.0)
        entries.emplace_back(static_cast<int>(m + i), static_cast<int>(j), basis(i, j));
    }
  }
  stacked_sparse_.resize(n, n);
  stacked_sparse_.setFromTriplets(entries.begin(), entries.end());
  stacked_sparse_.makeCompressed();
  largest_ = stacked_sparse_.coeffs().cwiseAbs().maxCoeff();
  // The pattern is that of Phi_q and the basis, fixed between re-bases: the fill-reducing
  // ordering and the symbolic analysis are done once for it.
  if (!same_pattern()) {
    lu_.analyzePattern(stacked_sparse_);
    outer_.assign(stacked_sparse_.outerIndexPtr(), stacked_sparse_.outerIndexPtr() + n + 1);
    inner_.assign(stacked_sparse_.innerIndexPtr(),
                  stacked_sparse_.innerIndexPtr() + stacked_sparse_.nonZeros());
  }
  lu_.factorize(stacked_sparse_);
  return lu_.info() == Eigen::Success;
}

bool stacked_solve::same_pattern() const {
  const auto n = static_cast<std::size_t>(stacked_sparse_.cols());
  const auto nnz = static_cast<std::size_t>(stacked_sparse_.nonZeros());
  return outer_.size() == n + 1 && inner_.size() == nnz &&
         std::equal(outer_.begin(), outer_.end(), stacked_sparse_.outerIndexPtr()) &&
         std::equal(inner_.begin(), inner_.end(), stacked_sparse_.innerIndexPtr());
}

Eigen::VectorXd stacked_solve::solve(const Eigen::VectorXd& rhs) const {
  if (!sparse_) return solve_dense(stacked_dense_, rhs);
  Eigen::VectorXd x = lu_.solve(rhs);
  const Eigen::VectorXd residual = stacked_sparse_ * x - rhs;
  const double scale = largest_ * max_abs(x) + max_abs(rhs);
  if (lu_.info() == Eigen::Success && x.allFinite() &&
      max_abs(residual) <= residual_ulps * Eigen::NumTraits<double>::epsilon() * scale) {
    return x;
  }
  // The sparse factorisation is not trusted here: the dense path of before decides.
  return solve_dense(Eigen::MatrixXd(stacked_sparse_), rhs);
}

}  // namespace kinevo::mechanics
