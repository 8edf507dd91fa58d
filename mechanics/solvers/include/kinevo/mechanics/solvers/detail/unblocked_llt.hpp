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
    factor_unblocked(a);
    m_l1_norm = lower_l1_norm(a);
  }

  // The factor without the L1 norm, which costs a fifth of the 50 x 50 factorisation (a strided
  // pass over the lower triangle): for a caller that estimates rcond() only now and then, through
  // rcond_of() with the same matrix.
  void factor_unblocked(const Eigen::MatrixXd& a) {
    m_matrix = a;
    m_l1_norm = 0.0;
    factor_in_place();
  }

  // rcond() of the factor of `a` made by factor_unblocked(a) or factor_in_place().
  double rcond_of(const Eigen::MatrixXd& a) {
    m_l1_norm = lower_l1_norm(a);
    return rcond();
  }

  // The factor's own storage, for the caller to write the lower triangle of the matrix to
  // factor_in_place() (no copy). The matrix is kept only until factor_in_place(), which
  // overwrites it: norm_of_stored() before then saves its L1 norm for rcond().
  Eigen::MatrixXd& storage() { return m_matrix; }
  void norm_of_stored() { m_l1_norm = lower_l1_norm(m_matrix); }
  void factor_in_place() {
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

 private:
  // Max abs column sum of the symmetric matrix, from its lower triangle (as compute() sums it).
  static double lower_l1_norm(const Eigen::MatrixXd& a) {
    const Eigen::Index size = a.rows();
    double norm = 0.0;
    for (Eigen::Index col = 0; col < size; ++col) {
      const double abs_col_sum =
          a.col(col).tail(size - col).lpNorm<1>() + a.row(col).head(col).lpNorm<1>();
      if (abs_col_sum > norm) norm = abs_col_sum;
    }
    return norm;
  }
};

}  // namespace kinevo::mechanics::detail
