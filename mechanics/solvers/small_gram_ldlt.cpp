#include "kinevo/mechanics/solvers/detail/small_gram_ldlt.hpp"

#include <algorithm>

namespace kinevo::mechanics {

// Row by row into row-major storage (kept: resized only when the sizes grow), with each row's
// first and last non-zero column; a zero row gets an empty range (first > last).
void small_gram_ldlt::copy_rows(const Eigen::MatrixXd& a_hat) {
  m_ = a_hat.rows();
  n_ = a_hat.cols();
  if (rows_.size() < static_cast<std::size_t>(m_ * n_)) rows_.resize(m_ * n_);
  const Eigen::Index stride = a_hat.outerStride();
  for (Eigen::Index i = 0; i < m_; ++i) {
    double* row = rows_.data() + i * n_;
    const double* source = a_hat.data() + i;
    int first = static_cast<int>(n_), last = -1;
    for (Eigen::Index j = 0; j < n_; ++j) {
      const double x = source[j * stride];
      row[j] = x;
      if (x != 0.0) {
        first = std::min(first, static_cast<int>(j));
        last = static_cast<int>(j);
      }
    }
    first_[i] = first;
    last_[i] = last;
  }
}

// G_ij = Â_i . Â_j over the columns where both rows may be non-zero; rows that do not overlap
// give a structural zero, and envelope_[i] is the first j <= i with an overlap.
void small_gram_ldlt::form_gram() {
  for (Eigen::Index i = 0; i < m_; ++i) {
    const double* ri = rows_.data() + i * n_;
    double* gi = l_ + i * max_rows;
    envelope_[i] = static_cast<int>(i);
    bool found = false;
    for (Eigen::Index j = 0; j <= i; ++j) {
      const int from = std::max(first_[i], first_[j]);
      const int to = std::min(last_[i], last_[j]);
      if (from > to) {
        gi[j] = 0.0;
        continue;
      }
      if (!found) {
        envelope_[i] = static_cast<int>(j);
        found = true;
      }
      const double* rj = rows_.data() + j * n_;
      double sum = 0.0;
      for (int k = from; k <= to; ++k) sum += ri[k] * rj[k];
      gi[j] = sum;
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

bool small_gram_ldlt::factor(const Eigen::MatrixXd& a_hat, double rank_tolerance) {
  if (!fits(a_hat.rows(), a_hat.cols())) return false;
  copy_rows(a_hat);
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
  y.setZero(n_);
  double* out = y.data();
  for (Eigen::Index i = 0; i < m_; ++i) {
    const double* ri = rows_.data() + i * n_;
    const double w = lambda[i];
    for (int k = first_[i]; k <= last_[i]; ++k) out[k] += w * ri[k];
  }
}

}  // namespace kinevo::mechanics
