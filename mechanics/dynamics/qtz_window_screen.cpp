#include "kinevo/mechanics/dynamics/detail/qtz_window_screen.hpp"

#include <Eigen/Cholesky>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <vector>

namespace kinevo::mechanics::detail {

namespace {

// M^-1 as a sparse matrix when M is diagonal or block-diagonal with small blocks (particles,
// planar and spatial bodies); false otherwise or when a block is not positive definite.
bool sparse_mass_inverse(const constrained_system& s, Eigen::SparseMatrix<double>& out) {
  const Eigen::Index n = s.mass.rows();
  std::vector<Eigen::Triplet<double>> entries;
  if (s.mass_is_diagonal) {
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!(s.mass(i, i) > 0.0)) return false;
      entries.emplace_back(i, i, 1.0 / s.mass(i, i));
    }
  } else {
    if (s.mass_blocks.size() < 2) return false;
    for (const auto& [start, size] : s.mass_blocks) {
      if (size > 16) return false;
      const Eigen::LLT<Eigen::MatrixXd> block(s.mass.block(start, start, size, size));
      if (block.info() != Eigen::Success) return false;
      const Eigen::MatrixXd inverse = block.solve(Eigen::MatrixXd::Identity(size, size));
      for (int j = 0; j < size; ++j) {
        for (int i = 0; i < size; ++i) entries.emplace_back(start + i, start + j, inverse(i, j));
      }
    }
  }
  out.resize(n, n);
  out.setFromTriplets(entries.begin(), entries.end());
  return true;
}

// Whether the sparse symmetric g minus shift I is positive definite: its sparse Cholesky
// factorisation meets no pivot <= 0 (SimplicialLLT's NumericalIssue). The natural order: a
// chain's Gram matrix is banded in it, and the fill-reducing ordering cost more than it saved.
bool positive_definite_after_shift(Eigen::SparseMatrix<double> g, double shift) {
  for (Eigen::Index i = 0; i < g.rows(); ++i) g.coeffRef(i, i) -= shift;
  const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::NaturalOrdering<int>>
      llt(g);
  return llt.info() == Eigen::Success;
}

// The 1-norm of a sparse matrix (its infinity norm when it is symmetric).
double one_norm(const Eigen::SparseMatrix<double>& g) {
  double largest = 0.0;
  for (Eigen::Index j = 0; j < g.outerSize(); ++j) {
    double column = 0.0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(g, j); it; ++it) {
      column += std::abs(it.value());
    }
    largest = std::max(largest, column);
  }
  return largest;
}

}  // namespace

bool qtz_windows_clear(const Eigen::MatrixXd& jacobian, const constrained_system& system,
                       double pivot_ratio, double window) {
  const Eigen::Index m = jacobian.rows();
  if (m < qtz_window_screen_min_rows || m > jacobian.cols()) return false;
  Eigen::SparseMatrix<double> mass_inverse;
  if (!sparse_mass_inverse(system, mass_inverse)) return false;
  const Eigen::SparseMatrix<double> a = jacobian.sparseView();
  const double pivot_floor = pivot_ratio * jacobian.rowwise().norm().maxCoeff();
  if (!positive_definite_after_shift(a * a.transpose(), pivot_floor * pivot_floor)) return false;
  const Eigen::SparseMatrix<double> weighted = a * mass_inverse * a.transpose();
  // The factor 1 + 1e-9 covers the round-off of the exact test's largest eigenvalue.
  return positive_definite_after_shift(weighted,
                                       window * window * one_norm(weighted) * (1.0 + 1e-9));
}

}  // namespace kinevo::mechanics::detail
