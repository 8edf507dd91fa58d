#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

#include <algorithm>
#include <vector>

namespace kinevo::mechanics {

void sparse_pseudo_inverse::transpose_pattern(const Eigen::SparseMatrix<double>& g) {
  // Column i of the upper triangle takes the rows j of row i of the lower one, ascending, as
  // Eigen's own transposition of the lower triangle orders them.
  const Eigen::Index m = g.cols();
  std::vector<int> count(static_cast<std::size_t>(m) + 1, 0);
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(g, j); it; ++it) {
      ++count[static_cast<std::size_t>(it.index()) + 1];
    }
  }
  for (Eigen::Index i = 0; i < m; ++i) {
    count[static_cast<std::size_t>(i) + 1] += count[static_cast<std::size_t>(i)];
  }
  upper_.resize(m, m);
  upper_.resizeNonZeros(g.nonZeros());
  std::copy(count.begin(), count.end(), upper_.outerIndexPtr());
  to_upper_.resize(static_cast<std::size_t>(g.nonZeros()));
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::Index p = g.outerIndexPtr()[j]; p < g.outerIndexPtr()[j + 1]; ++p) {
      const int k = count[static_cast<std::size_t>(g.innerIndexPtr()[p])]++;
      upper_.innerIndexPtr()[k] = static_cast<int>(j);
      to_upper_[static_cast<std::size_t>(p)] = k;
    }
  }
}

bool sparse_pseudo_inverse::factor_formed(double tolerance) {
  const Eigen::SparseMatrix<double>& g = gram_.lower();
  // The symbolic analysis (in the natural order, an elimination tree) depends on the pattern
  // only, so the factor is the one a fresh analysis gives.
  if (!analysed_.matches(g)) {
    transpose_pattern(g);
    ldlt_.analyzePattern(upper_);
    analysed_.remember(g);
  }
  // G's upper triangle, which SimplicialLDLT in the natural order factors as it is; from the
  // lower one it would first build this same matrix anew (a third of the factorisation).
  const double* lower_values = g.valuePtr();
  double* upper_values = upper_.valuePtr();
  for (std::size_t p = 0; p < to_upper_.size(); ++p) upper_values[to_upper_[p]] = lower_values[p];
  ldlt_.factorize(upper_);
  if (ldlt_.info() != Eigen::Success) return false;
  return rows_clear_of_dependence(ldlt_.vectorD(), g.valuePtr(), gram_.diagonal(), tolerance);
}

bool sparse_pseudo_inverse::factor(const Eigen::SparseMatrix<double>& a, double tolerance) {
  gram_.form(a);
  return factor_formed(tolerance);
}

bool sparse_pseudo_inverse::factor(const Eigen::MatrixXd& a,
                                   std::span<const std::pair<int, int>> pattern, double tolerance) {
  gram_.form(a, pattern);
  return factor_formed(tolerance);
}

void sparse_pseudo_inverse::gram_solve_in_place(row_major_matrix& x) const {
  // L D L^T X = R in the natural order (no permutation): forward substitution through L's
  // columns, the diagonal, back substitution through L^T (L's columns again).
  const Eigen::SparseMatrix<double>& l = ldlt_.matrixL().nestedExpression();
  const Eigen::VectorXd& d = ldlt_.vectorD();
  const Eigen::Index m = l.cols(), p = x.cols();
  for (Eigen::Index j = 0; j < m; ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(l, j); it; ++it) {
      if (it.index() > j) subtract_scaled(&x(it.index(), 0), it.value(), &x(j, 0), p);
    }
  }
  // A plain loop over the whole block, which the compiler unrolls: Eigen's row by row division
  // took a fifth of the solve in loop overhead.
  double* values = x.data();
  for (Eigen::Index j = 0; j < m; ++j, values += p) {
    const double dj = d[j];
    for (Eigen::Index c = 0; c < p; ++c) values[c] /= dj;
  }
  for (Eigen::Index j = m - 1; j >= 0; --j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(l, j); it; ++it) {
      if (it.index() > j) subtract_scaled(&x(j, 0), it.value(), &x(it.index(), 0), p);
    }
  }
}

Eigen::VectorXd sparse_pseudo_inverse::solve(const Eigen::VectorXd& b) const {
  return gram_.matrix().transpose() * Eigen::VectorXd(ldlt_.solve(b));
}

}  // namespace kinevo::mechanics
