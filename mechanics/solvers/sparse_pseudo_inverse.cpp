#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

#include <vector>

namespace kinevo::mechanics {

bool sparse_pseudo_inverse::factor_formed(double tolerance) {
  const Eigen::SparseMatrix<double>& g = gram_.lower();
  // The symbolic analysis (in the natural order, an elimination tree) depends on the pattern
  // only, so the factor is the one a fresh analysis gives.
  if (!analysed_.matches(g)) {
    ldlt_.analyzePattern(g);
    analysed_.remember(g);
  }
  ldlt_.factorize(g);
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
