// Eigen's LLT factored by Eigen's unblocked kernel. Eigen's compute() takes the blocked kernel
// from 32 rows, with blocks of 8 and GEMM updates whose packing dominates at the projection
// method's reduced mass sizes (a 50 x 50 M11: 150,000 instructions against 90,000). The L1 norm
// that rcond() needs is computed as compute() computes it; solve() and rcond() are Eigen's.
#pragma once

#include <Eigen/Cholesky>

namespace kinevo::mechanics::detail {

class unblocked_llt : public Eigen::LLT<Eigen::MatrixXd> {
 public:
  void compute_unblocked(const Eigen::MatrixXd& a) {
    const Eigen::Index size = a.rows();
    m_matrix = a;
    m_l1_norm = 0.0;  // max abs column sum of the symmetric matrix, from its lower triangle
    for (Eigen::Index col = 0; col < size; ++col) {
      const double abs_col_sum =
          m_matrix.col(col).tail(size - col).lpNorm<1>() + m_matrix.row(col).head(col).lpNorm<1>();
      if (abs_col_sum > m_l1_norm) m_l1_norm = abs_col_sum;
    }
    m_isInitialized = true;
    const bool ok = Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(m_matrix) == -1;
    m_info = ok ? Eigen::Success : Eigen::NumericalIssue;
  }

  // (min L_ii / max L_ii)^2: at least the reciprocal 2-norm condition number of the factored
  // matrix, and cheap. A fall of it says that the condition has worsened.
  double pivot_ratio() const {
    const Eigen::VectorXd d = m_matrix.diagonal().cwiseAbs();
    const double largest = d.maxCoeff();
    if (!(largest > 0.0)) return 0.0;
    const double r = d.minCoeff() / largest;
    return r * r;
  }
};

}  // namespace kinevo::mechanics::detail
