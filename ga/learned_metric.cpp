#include "kinevo/ga/detail/learned_metric.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "kinevo/ga/detail/hex_text.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {

namespace {

void put_matrix(std::ostream& os, const char* name, const Eigen::MatrixXd& m) {
  os << name;
  for (Eigen::Index k = 0; k < m.size(); ++k) os << ' ', put_hex(os, m.data()[k]);
  os << '\n';
}

void get_matrix(std::istream& is, const char* name, Eigen::MatrixXd& m) {
  std::string word;
  if (!(is >> word) || word != name) {
    throw io::input_error(std::string("expected '") + name + "' in the metric state");
  }
  for (Eigen::Index k = 0; k < m.size(); ++k) m.data()[k] = get_hex(is);
}

// C (kept as its lower triangle) made symmetric, its eigenpairs and its largest eigenvalue;
// nothing when the solver fails or no eigenvalue is positive and finite. Both roots bound C
// through these.
struct eigen_pairs {
  Eigen::MatrixXd symmetric;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen;
  double largest = 0.0;
};

std::optional<eigen_pairs> eigen_pairs_of(const Eigen::MatrixXd& lower) {
  eigen_pairs p;
  p.symmetric = lower.selfadjointView<Eigen::Lower>();
  p.eigen.compute(p.symmetric);
  if (p.eigen.info() != Eigen::Success) return std::nullopt;
  p.largest = p.eigen.eigenvalues().maxCoeff();
  if (!(p.largest > 0.0) || !std::isfinite(p.largest)) return std::nullopt;
  return p;
}

}  // namespace

void learned_metric::configure(int n, int interval, double rate, int lazy, metric_root root) {
  n_ = n;
  kind_ = root;
  interval_ = interval;
  mu_ = std::max(1, interval / 2);
  // Hansen's tutorial, eq. (49): w_i proportional to ln((lambda + 1) / 2) - ln i, the best half.
  weights_.resize(mu_);
  for (int i = 0; i < mu_; ++i) {
    weights_[i] = std::log(mu_ + 0.5) - std::log(i + 1.0);
  }
  weights_ /= weights_.sum();
  const double mu_eff = 1.0 / weights_.squaredNorm();
  // eq. (53) with c_1 = 0 (no evolution path): the rank-mu rate.
  const double dn = n;
  rate_ =
      rate > 0.0
          ? rate
          : std::min(1.0, 2.0 * (mu_eff - 2.0 + 1.0 / mu_eff) / ((dn + 2.0) * (dn + 2.0) + mu_eff));
  // Decompose when C has moved by about a tenth of 1 / n since the last time (times lazy).
  decompose_every_ = std::max(1, static_cast<int>(std::max(1, lazy) / (10.0 * dn * rate_)));
  root_steps_.resize(n_, interval_);
  squared_.resize(interval_);
  f_.resize(interval_);
  v_.resize(interval_);
  weighted_.resize(n_, mu_);
  reset();
}

void learned_metric::reset() {
  c_.setIdentity(n_, n_);
  root_.setIdentity(n_, n_);
  if (kind_ == metric_root::symmetric) {
    inverse_root_.setIdentity(n_, n_);
  } else {
    inverse_root_.resize(0, 0);
  }
  count_ = 0;
  updates_since_ = 0;
  condition_ = 1.0;
  ++epoch_;
}

void learned_metric::record(double y_squared_norm, const Eigen::Ref<const Eigen::VectorXd>& root_y,
                            double f, double v) {
  root_steps_.col(count_) = root_y;
  squared_[count_] = y_squared_norm;
  f_[count_] = f;
  v_[count_] = v;
  ++count_;
}

void learned_metric::update(std::span<const int> best_first) {
  count_ = 0;
  double second_moment = 0.0;
  // C^{1/2} y_i was formed with the child (its step in x): no n x n product per selected step.
  for (int i = 0; i < mu_; ++i) {
    const int k = best_first[static_cast<std::size_t>(i)];
    second_moment += weights_[i] * squared_[k];
    weighted_.col(i) = std::sqrt(weights_[i]) * root_steps_.col(k);
  }
  if (!(second_moment > 0.0) || !std::isfinite(second_moment)) return;
  // Only C's lower triangle is updated (half the flops of the full rank-mu product); the
  // decomposition reads C from it.
  c_.triangularView<Eigen::Lower>() *= 1.0 - rate_;
  c_.selfadjointView<Eigen::Lower>().rankUpdate(weighted_, rate_ * n_ / second_moment);
  if (++updates_since_ >= decompose_every_) decompose();
}

// Below this n the Cholesky root is applied by plain loops.
constexpr int small_root = 24;

void learned_metric::to_x(const Eigen::Ref<const Eigen::VectorXd>& u,
                          Eigen::Ref<Eigen::VectorXd> x) const {
  if (kind_ == metric_root::symmetric) {
    x.noalias() = root_ * u;
  } else if (n_ < small_root) {
    // Column by column: Eigen's blocked triangular kernels cost more than the arithmetic at
    // this size (the double-pendulum study, n = 4, spent 15 % of its time in them).
    x.setZero();
    for (int j = 0; j < n_; ++j) {
      const double uj = u[j];
      for (int i = j; i < n_; ++i) x[i] += root_(i, j) * uj;
    }
  } else {
    x.noalias() = root_.triangularView<Eigen::Lower>() * u;
  }
}

void learned_metric::to_u(const Eigen::Ref<const Eigen::VectorXd>& x,
                          Eigen::Ref<Eigen::VectorXd> u) const {
  if (kind_ == metric_root::symmetric) {
    u.noalias() = inverse_root_ * x;
  } else if (n_ < small_root) {
    u = x;  // forward substitution, column by column
    for (int j = 0; j < n_; ++j) {
      u[j] /= root_(j, j);
      const double uj = u[j];
      for (int i = j + 1; i < n_; ++i) u[i] -= root_(i, j) * uj;
    }
  } else {
    u = x;
    root_.triangularView<Eigen::Lower>().solveInPlace(u);
  }
}

void learned_metric::decompose() {
  updates_since_ = 0;
  // A failed decomposition keeps the last root: C is unusable this time.
  if (kind_ == metric_root::cholesky ? decompose_cholesky() : decompose_symmetric()) ++epoch_;
}

// Bounded to a condition of 1e14: beyond it u = C^{-1/2} x loses every digit of the steep
// directions.
constexpr double condition_bound = 1e14;

// L from C's lower triangle, scaled to det 1 (det C = prod L_ii^2). When the LLT fails or its
// estimated condition passes the bound, C is bounded through its eigenvalues first (rare: the
// trace-normalised update keeps C well inside the bound on every model measured).
bool learned_metric::decompose_cholesky() {
  Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> llt(c_);
  if (llt.info() != Eigen::Success || !(llt.rcond() * condition_bound > 1.0)) {
    const std::optional<eigen_pairs> p = eigen_pairs_of(c_);
    if (!p) return false;
    const Eigen::VectorXd values = p->eigen.eigenvalues().cwiseMax(p->largest / condition_bound);
    c_ = p->eigen.eigenvectors() * values.asDiagonal() * p->eigen.eigenvectors().transpose();
    llt.compute(c_);
    if (llt.info() != Eigen::Success) return false;
  }
  const Eigen::MatrixXd& l = llt.matrixLLT();
  const double log_det = 2.0 * l.diagonal().array().log().mean();
  if (!std::isfinite(log_det)) return false;
  const double scale = std::exp(log_det);
  condition_ = 1.0 / llt.rcond();
  c_.triangularView<Eigen::Lower>() /= scale;
  root_ = l.triangularView<Eigen::Lower>();
  root_ /= std::sqrt(scale);
  return true;
}

bool learned_metric::decompose_symmetric() {
  const std::optional<eigen_pairs> p = eigen_pairs_of(c_);
  if (!p) return false;
  const Eigen::MatrixXd& symmetric = p->symmetric;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& eigen = p->eigen;
  const double largest = p->largest;
  Eigen::VectorXd values = eigen.eigenvalues();
  const bool bounded = values.minCoeff() < largest * 1e-14;
  values = values.cwiseMax(largest * 1e-14);
  // det C = 1: the scale of the children is PCX's (the parents' spread), C gives the shape.
  const double scale = std::exp(values.array().log().mean());
  values /= scale;
  condition_ = values.maxCoeff() / values.minCoeff();
  const Eigen::MatrixXd& vectors = eigen.eigenvectors();
  // C is rebuilt from its eigenpairs only when the bound moved an eigenvalue. The roots are
  // symmetric products W W^T (W = V Lambda^{+-1/4}), of which only one triangle is computed:
  // half the flops of V Lambda^{+-1/2} V^T, and exactly symmetric. The three full products
  // were a sixth of a cold Gauss solve's time on the 100-link chain (n = 200).
  if (bounded) {
    c_ = vectors * values.asDiagonal() * vectors.transpose();
  } else {
    c_ = symmetric / scale;
  }
  symmetric_square(vectors * values.array().sqrt().sqrt().matrix().asDiagonal(), root_);
  symmetric_square(vectors * values.array().sqrt().sqrt().inverse().matrix().asDiagonal(),
                   inverse_root_);
  return true;
}

// out = w w^T, from its lower triangle.
void learned_metric::symmetric_square(const Eigen::MatrixXd& w, Eigen::MatrixXd& out) {
  out.setZero(w.rows(), w.rows());
  out.selfadjointView<Eigen::Lower>().rankUpdate(w);
  for (Eigen::Index j = 1; j < out.cols(); ++j) {
    for (Eigen::Index i = 0; i < j; ++i) out(i, j) = out(j, i);
  }
}

void learned_metric::save(std::ostream& os) const {
  os << "metric " << count_ << ' ' << updates_since_;
  os << ' ', put_hex(os, condition_);
  os << '\n';
  put_matrix(os, "metric_c", c_);
  put_matrix(os, "metric_root", root_);
  put_matrix(os, "metric_inverse_root", inverse_root_);
  os << "metric_root_steps";
  for (int k = 0; k < count_; ++k) {
    os << ' ', put_hex(os, f_[k]);
    os << ' ', put_hex(os, v_[k]);
    os << ' ', put_hex(os, squared_[k]);
    for (int j = 0; j < n_; ++j) os << ' ', put_hex(os, root_steps_(j, k));
  }
  os << '\n';
}

void learned_metric::load(std::istream& is) {
  std::string word;
  if (!(is >> word) || word != "metric" || !(is >> count_ >> updates_since_) || count_ < 0 ||
      count_ >= interval_ || updates_since_ < 0) {
    throw io::input_error("unreadable metric state");
  }
  condition_ = get_hex(is);
  get_matrix(is, "metric_c", c_);
  get_matrix(is, "metric_root", root_);
  get_matrix(is, "metric_inverse_root", inverse_root_);  // cholesky: empty, an empty line
  if (!(is >> word) || (word != "metric_root_steps" && word != "metric_steps")) {
    throw io::input_error("unreadable metric steps");
  }
  const bool in_u = word == "metric_steps";  // written before the steps were kept in x
  Eigen::VectorXd y(n_);
  for (int k = 0; k < count_; ++k) {
    f_[k] = get_hex(is);
    v_[k] = get_hex(is);
    if (!in_u) squared_[k] = get_hex(is);
    for (int j = 0; j < n_; ++j) y[j] = get_hex(is);
    if (in_u) {
      // What the update formed from them then: C^{1/2} y under the same root.
      squared_[k] = y.squaredNorm();
      to_x(y, root_steps_.col(k));
    } else {
      root_steps_.col(k) = y;
    }
  }
  ++epoch_;
}

}  // namespace kinevo::ga
