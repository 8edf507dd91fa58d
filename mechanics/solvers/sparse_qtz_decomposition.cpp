#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"

#include "kinevo/mechanics/solvers/detail/cholmod_view.hpp"

#include <SuiteSparseQR.hpp>

#include <algorithm>
#include <cstring>

namespace kinevo::mechanics {

namespace {

// Every diagonal entry of R must be this factor clear of the rank tolerance.
constexpr double qtz_sparse_margin = 1e3;

// Like the solvers' sparse Gram path: below ~8 rows, or at more than a quarter filled, the dense
// factorisation is as fast.
bool qtz_sparse_worthwhile(const Eigen::MatrixXd& jacobian) {
  const auto m = static_cast<double>(jacobian.rows());
  const auto n = static_cast<double>(jacobian.cols());
  const auto nonzeros = static_cast<double>((jacobian.array() != 0.0).count());
  return m >= 8 && m < n && nonzeros <= 0.25 * m * n;
}

}  // namespace

struct spqr_factors {
  cholmod_common common{};
  // Phi_q^T in compressed columns (SuiteSparseQR's long indices).
  std::vector<SuiteSparse_long> outer, inner;
  std::vector<double> values;
  cholmod_sparse* r = nullptr;         // R, m x m
  SuiteSparse_long* e = nullptr;       // E (null: the identity)
  cholmod_sparse* h = nullptr;         // the Householder vectors, n x s
  SuiteSparse_long* h_pinv = nullptr;  // P_H: row i of Phi_q^T is row h_pinv[i] of R and H
  cholmod_dense* h_tau = nullptr;      // their coefficients, 1 x s
  std::size_t rows = 0, cols = 0;      // of the factored Phi_q^T

  spqr_factors() { cholmod_l_start(&common); }
  ~spqr_factors() {
    release();
    cholmod_l_finish(&common);
  }
  spqr_factors(const spqr_factors&) = delete;
  spqr_factors& operator=(const spqr_factors&) = delete;

  void release() {
    cholmod_l_free_sparse(&r, &common);
    cholmod_l_free_sparse(&h, &common);
    cholmod_l_free_dense(&h_tau, &common);
    if (e != nullptr) cholmod_l_free(cols, sizeof(SuiteSparse_long), e, &common);
    if (h_pinv != nullptr) cholmod_l_free(rows, sizeof(SuiteSparse_long), h_pinv, &common);
    e = nullptr;
    h_pinv = nullptr;
  }

  // Phi_q^T of `jacobian` (m x n) into outer / inner / values, which keep room for a dense
  // Phi_q (the entries past outer[m] unused): every entry is written and the count advanced only
  // past a nonzero, without push_back's checks (337,000 instructions per RK4 step of the 50-link
  // chain's qtz-orthogonal before, 12 per entry of Phi_q).
  void transpose(const Eigen::MatrixXd& jacobian) {
    const Eigen::Index m = jacobian.rows(), n = jacobian.cols();
    const auto most = static_cast<std::size_t>(m * n);
    if (inner.size() < most) {
      inner.resize(most);
      values.resize(most);
    }
    outer.resize(static_cast<std::size_t>(m) + 1);
    outer[0] = 0;
    SuiteSparse_long* const in = inner.data();
    double* const x = values.data();
    SuiteSparse_long count = 0;
    for (Eigen::Index j = 0; j < m; ++j) {
      const double* const row = jacobian.data() + j;  // column-major: entry i at row[i * m]
      for (Eigen::Index i = 0; i < n; ++i) {
        const double v = row[i * m];
        in[count] = static_cast<SuiteSparse_long>(i);
        x[count] = v;
        count += v != 0.0 ? 1 : 0;
      }
      outer[static_cast<std::size_t>(j) + 1] = count;
    }
  }

  // The QR with the Householder vectors kept; the rank SuiteSparseQR reports (-1: it failed).
  SuiteSparse_long factor(Eigen::Index n, Eigen::Index m) {
    release();
    rows = static_cast<std::size_t>(n);
    cols = static_cast<std::size_t>(m);
    cholmod_sparse a = cholmod_view(rows, cols, outer.data(), inner.data(), values.data());
    // tol 0: only exactly zero columns count as dead; the margin test on R's diagonal decides.
    return SuiteSparseQR<double>(SPQR_ORDERING_COLAMD, 0.0, 0, &a, &r, &e, &h, &h_pinv, &h_tau,
                                 &common);
  }
};

sparse_qtz_factor::sparse_qtz_factor() = default;
sparse_qtz_factor::~sparse_qtz_factor() = default;

bool sparse_qtz_factor::compute(const Eigen::MatrixXd& jacobian, double rank_tolerance) {
  if (!qtz_sparse_worthwhile(jacobian)) return false;
  m_ = jacobian.rows();
  n_ = jacobian.cols();
  multifrontal_ = m_ >= spqr_min_rows;
  if (!(multifrontal_ ? compute_multifrontal(jacobian) : compute_eigen(jacobian))) return false;
  const Eigen::VectorXd diagonal = t_.diagonal().cwiseAbs();
  return diagonal.minCoeff() > qtz_sparse_margin * rank_tolerance * diagonal.maxCoeff();
}

bool sparse_qtz_factor::same_pattern() const {
  const auto outer = transposed_.cols() + 1, nonzeros = transposed_.nonZeros();
  return outer_.size() == outer && inner_.size() == nonzeros &&
         std::equal(outer_.data(), outer_.data() + outer, transposed_.outerIndexPtr()) &&
         std::equal(inner_.data(), inner_.data() + nonzeros, transposed_.innerIndexPtr());
}

bool sparse_qtz_factor::compute_eigen(const Eigen::MatrixXd& jacobian) {
  transposed_ = jacobian.transpose().sparseView();
  transposed_.makeCompressed();
  // compute() = analyzePattern() + factorize(); the analysis depends on the pattern only.
  if (!same_pattern()) {
    qr_.analyzePattern(transposed_);
    outer_ = Eigen::Map<const Eigen::VectorXi>(transposed_.outerIndexPtr(), transposed_.cols() + 1);
    inner_ = Eigen::Map<const Eigen::VectorXi>(transposed_.innerIndexPtr(), transposed_.nonZeros());
  }
  qr_.factorize(transposed_);
  if (qr_.info() != Eigen::Success || qr_.rank() != m_) {
    outer_.resize(0);  // analyse afresh next time
    return false;
  }
  t_ = Eigen::MatrixXd(qr_.matrixR().topLeftCorner(m_, m_)).triangularView<Eigen::Upper>();
  return true;
}

bool sparse_qtz_factor::compute_multifrontal(const Eigen::MatrixXd& jacobian) {
  if (!f_) f_ = std::make_unique<spqr_factors>();
  f_->transpose(jacobian);
  // A failure is SuiteSparseQR's memory, not the model's: the dense path decides then.
  if (f_->factor(n_, m_) != m_ || f_->r == nullptr || f_->h == nullptr ||
      static_cast<Eigen::Index>(f_->r->nrow) < m_) {
    return false;
  }
  order_.resize(static_cast<std::size_t>(m_));
  for (Eigen::Index j = 0; j < m_; ++j) {
    order_[static_cast<std::size_t>(j)] =
        f_->e != nullptr ? static_cast<int>(f_->e[j]) : static_cast<int>(j);
  }
  // T: the top m x m block of R (upper triangular, compressed columns).
  t_.setZero(m_, m_);
  const auto* rp = static_cast<const SuiteSparse_long*>(f_->r->p);
  const auto* ri = static_cast<const SuiteSparse_long*>(f_->r->i);
  const auto* rx = static_cast<const double*>(f_->r->x);
  for (Eigen::Index j = 0; j < m_; ++j) {
    for (SuiteSparse_long k = rp[j]; k < rp[j + 1]; ++k) {
      if (ri[k] < m_) t_(ri[k], j) = rx[k];
    }
  }
  return true;
}

void sparse_qtz_factor::apply_q(Eigen::MatrixXd& x) const {
  const auto* hp = static_cast<const SuiteSparse_long*>(f_->h->p);
  const auto* hi = static_cast<const SuiteSparse_long*>(f_->h->i);
  const auto* hx = static_cast<const double*>(f_->h->x);
  const auto* tau = static_cast<const double*>(f_->h_tau->x);
  const auto s = static_cast<Eigen::Index>(f_->h->ncol);
  Eigen::VectorXd y(n_);
  for (Eigen::Index c = 0; c < x.cols(); ++c) {
    // In R's row order: x = P_H^T y, y = H_1 ... H_s (P_H x).
    for (Eigen::Index i = 0; i < n_; ++i) y[f_->h_pinv[i]] = x(i, c);
    for (Eigen::Index k = s - 1; k >= 0; --k) {
      double dot = 0.0;
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1]; ++p) dot += hx[p] * y[hi[p]];
      if (dot == 0.0) continue;
      dot *= tau[k];
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1]; ++p) y[hi[p]] -= dot * hx[p];
    }
    for (Eigen::Index i = 0; i < n_; ++i) x(i, c) = y[f_->h_pinv[i]];
  }
}

void sparse_qtz_factor::reach_units(Eigen::Index offset, Eigen::Index columns) const {
  const auto* hp = static_cast<const SuiteSparse_long*>(f_->h->p);
  const auto* hi = static_cast<const SuiteSparse_long*>(f_->h->i);
  const auto s = static_cast<Eigen::Index>(f_->h->ncol);
  // The key, laid out as [n, offset, columns, s, H's column starts, H's rows, P_H], compared in
  // place (no copy on the path that finds it unchanged).
  const std::size_t head = 4, size = head + static_cast<std::size_t>(s + 1 + hp[s] + n_);
  const std::int64_t* key = reach_key_.data();
  const bool same = reach_key_.size() == size && key[0] == n_ && key[1] == offset &&
                    key[2] == columns && key[3] == s && std::equal(hp, hp + s + 1, key + head) &&
                    std::equal(hi, hi + hp[s], key + head + s + 1) &&
                    std::equal(f_->h_pinv, f_->h_pinv + n_, key + head + s + 1 + hp[s]);
  if (same) return;
  reach_key_ = {n_, offset, columns, s};
  reach_key_.insert(reach_key_.end(), hp, hp + s + 1);
  reach_key_.insert(reach_key_.end(), hi, hi + hp[s]);
  reach_key_.insert(reach_key_.end(), f_->h_pinv, f_->h_pinv + n_);
  reach_start_.assign(1, 0);
  reach_.clear();
  std::vector<char> support(static_cast<std::size_t>(n_));
  for (Eigen::Index j = 0; j < columns; ++j) {
    std::fill(support.begin(), support.end(), 0);
    support[static_cast<std::size_t>(offset + j)] = 1;
    for (Eigen::Index k = s - 1; k >= 0; --k) {
      bool meets = false;
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1] && !meets; ++p) meets = support[hi[p]] != 0;
      if (!meets) continue;
      reach_.push_back(static_cast<int>(k));
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1]; ++p) support[hi[p]] = 1;
    }
    reach_start_.push_back(static_cast<int>(reach_.size()));
  }
}

Eigen::MatrixXd sparse_qtz_factor::q_columns(bool first) const {
  const Eigen::Index columns = first ? m_ : n_ - m_, offset = first ? 0 : m_;
  if (!multifrontal_) {
    Eigen::MatrixXd e = Eigen::MatrixXd::Zero(n_, columns);
    e.middleRows(offset, columns).setIdentity();
    return qr_.matrixQ() * e;
  }
  Eigen::MatrixXd e(n_, columns);  // every entry written below
  // Column j is Q e_r, r = offset + j in R's row order, by the reflections that can reach it:
  // every other one meets only exact zeros, its product is +0 and apply_q skips it too, so the
  // numbers are apply_q's to the bit (forming Q2 on the 50-link chain: most of the s x (n - m)
  // products were such zeros). Neighbouring columns mostly reach the same reflections: such a
  // group is carried as the rows of one row-major block, so that each reflection's sparse index
  // is walked once for the group and the group's entries of a row are updated together; every
  // column still sees its own operations in apply_q's order.
  reach_units(offset, columns);
  const auto* hp = static_cast<const SuiteSparse_long*>(f_->h->p);
  const auto* hi = static_cast<const SuiteSparse_long*>(f_->h->i);
  const auto* hx = static_cast<const double*>(f_->h->x);
  const auto* tau = static_cast<const double*>(f_->h_tau->x);
  const auto list = [&](Eigen::Index column) {
    const auto at = static_cast<std::size_t>(column);
    return std::pair{reach_.data() + reach_start_[at], reach_.data() + reach_start_[at + 1]};
  };
  std::vector<double> block, dots, scaled;
  for (Eigen::Index j = 0; j < columns;) {
    const auto [begin, end] = list(j);
    Eigen::Index width = 1;
    while (j + width < columns) {
      const auto [other_begin, other_end] = list(j + width);
      if (!std::equal(begin, end, other_begin, other_end)) break;
      ++width;
    }
    const auto w = static_cast<std::size_t>(width);
    block.assign(static_cast<std::size_t>(n_) * w, 0.0);
    dots.resize(w);
    scaled.resize(w);
    for (std::size_t c = 0; c < w; ++c)
      block[(static_cast<std::size_t>(offset + j) + c) * w + c] = 1.0;
    for (const int* it = begin; it != end; ++it) {
      const int k = *it;
      double* __restrict dot = dots.data();
      std::fill(dot, dot + w, 0.0);
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1]; ++p) {
        const double h = hx[p];
        const double* __restrict row = block.data() + static_cast<std::size_t>(hi[p]) * w;
        for (std::size_t c = 0; c < w; ++c) dot[c] += h * row[c];
      }
      std::size_t zeros = 0;
      double* __restrict step = scaled.data();
      for (std::size_t c = 0; c < w; ++c) {
        zeros += dot[c] == 0.0 ? 1 : 0;
        step[c] = dot[c] * tau[k];
      }
      if (zeros == w) continue;
      for (SuiteSparse_long p = hp[k]; p < hp[k + 1]; ++p) {
        const double h = hx[p];
        double* __restrict row = block.data() + static_cast<std::size_t>(hi[p]) * w;
        if (zeros == 0) {
          for (std::size_t c = 0; c < w; ++c) row[c] -= step[c] * h;
        } else {
          for (std::size_t c = 0; c < w; ++c) {
            if (dot[c] != 0.0) row[c] -= step[c] * h;
          }
        }
      }
    }
    for (Eigen::Index i = 0; i < n_; ++i) {
      const double* row = block.data() + static_cast<std::size_t>(f_->h_pinv[i]) * w;
      for (std::size_t c = 0; c < w; ++c) e(i, j + static_cast<Eigen::Index>(c)) = row[c];
    }
    j += width;
  }
  return e;
}

Eigen::MatrixXd sparse_qtz_factor::q2_every_reflection() const {
  if (!multifrontal_) return q2();
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(n_, n_ - m_);
  // [0; I] in R's row order; apply_q takes its argument in the rows of Phi_q^T.
  for (Eigen::Index i = 0; i < n_; ++i) {
    const Eigen::Index row = f_->h_pinv[i] - m_;
    if (row >= 0 && row < n_ - m_) e(i, row) = 1.0;
  }
  apply_q(e);
  return e;
}

Eigen::MatrixXd sparse_qtz_factor::q1() const {
  return q_columns(true);
}

Eigen::MatrixXd sparse_qtz_factor::q2() const {
  return q_columns(false);
}

Eigen::MatrixXd sparse_qtz_factor::combination() const {
  // C = P^T (Eigen's column permutation, or SuiteSparseQR's E): Z = I.
  if (!multifrontal_) {
    return Eigen::MatrixXd::Identity(m_, m_) * qr_.colsPermutation().transpose();
  }
  Eigen::MatrixXd c = Eigen::MatrixXd::Zero(m_, m_);
  for (Eigen::Index j = 0; j < m_; ++j) c(j, order_[static_cast<std::size_t>(j)]) = 1.0;
  return c;
}

Eigen::VectorXd sparse_qtz_factor::q1_hat_times(const Eigen::VectorXd& x) const {
  const Eigen::VectorXd w = t_.triangularView<Eigen::Upper>().transpose().solve(x);
  if (!multifrontal_) {
    Eigen::VectorXd y = Eigen::VectorXd::Zero(n_);
    y.head(m_) = w;
    return qr_.matrixQ() * y;
  }
  Eigen::MatrixXd y = Eigen::MatrixXd::Zero(n_, 1);
  for (Eigen::Index i = 0; i < n_; ++i) {
    if (f_->h_pinv[i] < m_) y(i, 0) = w[f_->h_pinv[i]];
  }
  apply_q(y);
  return y.col(0);
}

std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance,
                                                      std::shared_ptr<sparse_qtz_factor>& factor,
                                                      bool with_q2) {
  // A factor still held by an earlier decomposition stays as it is (that decomposition applies
  // its Q1^ through it): this one gets a fresh one.
  if (!factor || factor.use_count() > 1) factor = std::make_shared<sparse_qtz_factor>();
  if (!factor->compute(jacobian, rank_tolerance)) return std::nullopt;
  qtz_decomposition d;
  d.rank = static_cast<int>(jacobian.rows());
  if (with_q2) d.q2 = factor->q2();
  d.t = factor->t();
  d.combination = factor->combination();
  d.sparse = factor;
  return d;
}

std::optional<qtz_decomposition> decompose_qtz_sparse(const Eigen::MatrixXd& jacobian,
                                                      double rank_tolerance) {
  std::shared_ptr<sparse_qtz_factor> factor;
  auto d = decompose_qtz_sparse(jacobian, rank_tolerance, factor);
  if (!d) return std::nullopt;
  d->q1 = factor->q1();
  d->q1_hat = d->t.triangularView<Eigen::Upper>().solve(d->q1.transpose()).transpose();
  d->sparse.reset();
  return d;
}

}  // namespace kinevo::mechanics
