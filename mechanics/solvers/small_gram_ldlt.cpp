#include "kinevo/mechanics/solvers/detail/small_gram_ldlt.hpp"

#include <algorithm>

namespace kinevo::mechanics {

// Â's non-zero entries column by column (Â is column-major: each column is read in order).
void small_gram_ldlt::compress_columns(const Eigen::MatrixXd& a_hat, const double* column_scale) {
  m_ = a_hat.rows();
  n_ = a_hat.cols();
  const auto capacity = static_cast<std::size_t>(m_ * n_);
  if (values_.size() < capacity) {
    values_.resize(capacity);
    row_.resize(capacity);
  }
  start_.resize(static_cast<std::size_t>(n_) + 1);
  int count = 0;
  for (Eigen::Index j = 0; j < n_; ++j) {
    start_[static_cast<std::size_t>(j)] = count;
    const double* column = a_hat.data() + j * a_hat.outerStride();
    const double scale = column_scale == nullptr ? 1.0 : column_scale[j];
    for (Eigen::Index i = 0; i < m_; ++i) {
      if (column[i] == 0.0) continue;
      values_[static_cast<std::size_t>(count)] =
          column_scale == nullptr ? column[i] : column[i] * scale;
      row_[static_cast<std::size_t>(count)] = static_cast<int>(i);
      ++count;
    }
  }
  start_[static_cast<std::size_t>(n_)] = count;
}

// G = sum over columns j of â_j â_j^T, over each column's non-zeros: G_ik collects its products
// in ascending j, as the dot product of rows i and k would. envelope_[i] is the first k <= i with
// a product.
void small_gram_ldlt::form_gram() {
  for (Eigen::Index i = 0; i < m_; ++i) {
    std::fill_n(l_ + i * max_rows, i + 1, 0.0);
    envelope_[i] = static_cast<int>(i);
  }
  for (Eigen::Index j = 0; j < n_; ++j) {
    const int begin = start_[static_cast<std::size_t>(j)];
    const int end = start_[static_cast<std::size_t>(j) + 1];
    for (int p = begin; p < end; ++p) {
      const int i = row_[static_cast<std::size_t>(p)];
      const double v = values_[static_cast<std::size_t>(p)];
      double* gi = l_ + static_cast<Eigen::Index>(i) * max_rows;
      // Rows ascend within a column: the first entry holds the smallest row index.
      envelope_[i] = std::min(envelope_[i], row_[static_cast<std::size_t>(begin)]);
      for (int q = begin; q <= p; ++q)
        gi[row_[static_cast<std::size_t>(q)]] += v * values_[static_cast<std::size_t>(q)];
    }
  }
}

// Row-oriented LDL^T inside the envelope: for row i, c_j = L_ij D_j = G_ij - sum_k c_k L_jk over
// the columns both rows' envelopes hold, then L_ij = c_j / D_j and D_i = G_ii - sum_k c_k L_ik.
bool small_gram_ldlt::factor_envelope(double rank_tolerance) {
  double scale = 0.0;
  for (Eigen::Index i = 0; i < m_; ++i) scale = std::max(scale, l_[i * max_rows + i]);
  const double floor = rank_margin * rank_tolerance * rank_tolerance * scale;
  double c[max_rows];
  for (Eigen::Index i = 0; i < m_; ++i) {
    double* li = l_ + i * max_rows;
    const int fi = envelope_[i];
    for (int j = fi; j < i; ++j) {
      const double* lj = l_ + static_cast<Eigen::Index>(j) * max_rows;
      double sum = li[j];
      for (int k = std::max(fi, envelope_[j]); k < j; ++k) sum -= c[k] * lj[k];
      c[j] = sum;
    }
    const double g_ii = li[i];
    double d = g_ii;
    for (int j = fi; j < i; ++j) {
      li[j] = c[j] / d_[j];
      d -= c[j] * li[j];
    }
    // Written so that a NaN refuses too.
    if (!(d > min_pivot_ratio * g_ii) || !(d > floor)) return false;
    d_[i] = d;
  }
  return true;
}

bool small_gram_ldlt::factor(const Eigen::MatrixXd& a_hat, double rank_tolerance,
                             const double* column_scale) {
  if (!fits(a_hat.rows(), a_hat.cols())) return false;
  compress_columns(a_hat, column_scale);
  form_gram();
  return factor_envelope(rank_tolerance);
}

void small_gram_ldlt::solve(const Eigen::VectorXd& r, Eigen::VectorXd& lambda) const {
  lambda = r;
  double* x = lambda.data();
  for (Eigen::Index i = 0; i < m_; ++i) {  // L z = r
    const double* li = l_ + i * max_rows;
    double sum = x[i];
    for (int k = envelope_[i]; k < i; ++k) sum -= li[k] * x[k];
    x[i] = sum;
  }
  for (Eigen::Index i = 0; i < m_; ++i) x[i] /= d_[i];
  for (Eigen::Index i = m_ - 1; i > 0; --i) {  // L^T lambda = D^-1 z, by columns of L^T
    const double* li = l_ + i * max_rows;
    const double xi = x[i];
    for (int k = envelope_[i]; k < i; ++k) x[k] -= li[k] * xi;
  }
}

void small_gram_ldlt::transpose_times(const Eigen::VectorXd& lambda, Eigen::VectorXd& y) const {
  y.resize(n_);
  for (Eigen::Index j = 0; j < n_; ++j) {
    double sum = 0.0;
    for (int p = start_[static_cast<std::size_t>(j)]; p < start_[static_cast<std::size_t>(j) + 1];
         ++p)
      sum += values_[static_cast<std::size_t>(p)] * lambda[row_[static_cast<std::size_t>(p)]];
    y[j] = sum;
  }
}

}  // namespace kinevo::mechanics
