#include "kinevo/mechanics/solvers/sparse_qtz_decomposition.hpp"

#include <algorithm>

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

bool sparse_qtz_factor::same_pattern() const {
  const auto outer = transposed_.cols() + 1, nonzeros = transposed_.nonZeros();
  return outer_.size() == outer && inner_.size() == nonzeros &&
         std::equal(outer_.data(), outer_.data() + outer, transposed_.outerIndexPtr()) &&
         std::equal(inner_.data(), inner_.data() + nonzeros, transposed_.innerIndexPtr());
}

bool sparse_qtz_factor::compute(const Eigen::MatrixXd& jacobian, double rank_tolerance) {
  if (!qtz_sparse_worthwhile(jacobian)) return false;
  const Eigen::Index m = jacobian.rows();
  transposed_ = jacobian.transpose().sparseView();
  transposed_.makeCompressed();
  // compute() = analyzePattern() + factorize(); the analysis depends on the pattern only.
  if (!same_pattern()) {
    qr_.analyzePattern(transposed_);
    outer_ = Eigen::Map<const Eigen::VectorXi>(transposed_.outerIndexPtr(), transposed_.cols() + 1);
    inner_ = Eigen::Map<const Eigen::VectorXi>(transposed_.innerIndexPtr(), transposed_.nonZeros());
  }
  qr_.factorize(transposed_);
  if (qr_.info() != Eigen::Success || qr_.rank() != m) {
    outer_.resize(0);  // analyse afresh next time
    return false;
  }
  t_ = Eigen::MatrixXd(qr_.matrixR().topLeftCorner(m, m)).triangularView<Eigen::Upper>();
  const Eigen::VectorXd diagonal = t_.diagonal().cwiseAbs();
  return diagonal.minCoeff() > qtz_sparse_margin * rank_tolerance * diagonal.maxCoeff();
}

Eigen::MatrixXd sparse_qtz_factor::q1() const {
  const Eigen::Index n = transposed_.rows(), m = transposed_.cols();
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(n, m);
  e.topRows(m).setIdentity();
  return qr_.matrixQ() * e;
}

Eigen::MatrixXd sparse_qtz_factor::q2() const {
  const Eigen::Index n = transposed_.rows(), m = transposed_.cols();
  Eigen::MatrixXd e = Eigen::MatrixXd::Zero(n, n - m);
  e.bottomRows(n - m).setIdentity();
  return qr_.matrixQ() * e;
}

Eigen::MatrixXd sparse_qtz_factor::combination() const {
  // C = Z P^T with Z = I.
  const Eigen::Index m = transposed_.cols();
  return Eigen::MatrixXd::Identity(m, m) * qr_.colsPermutation().transpose();
}

Eigen::VectorXd sparse_qtz_factor::q1_hat_times(const Eigen::VectorXd& x) const {
  const Eigen::Index n = transposed_.rows(), m = transposed_.cols();
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  w.head(m) = t_.triangularView<Eigen::Upper>().transpose().solve(x);
  return qr_.matrixQ() * w;
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
