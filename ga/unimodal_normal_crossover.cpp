#include "kinevo/ga/detail/unimodal_normal_crossover.hpp"
#include "kinevo/core/householder_q.hpp"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace kinevo::ga {

void unimodal_normal_crossover::prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents) {
  const Eigen::Index n = parents.rows();
  const Eigen::Index m = parents.cols() - 1;  // primary parents
  const auto primary = parents.leftCols(m);
  g_ = primary.rowwise().mean();
  d_ = primary.colwise() - g_;
  // The primary subspace is spanned by x_i - x_m, i < m (m - 1 vectors; the d_i sum to 0).
  const Eigen::Index k = std::min(m - 1, n);
  const Eigen::MatrixXd spans = primary.leftCols(k).colwise() - primary.col(m - 1);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(spans);
  basis_ = householder_q_columns(qr, k);
  Eigen::VectorXd off = parents.col(m) - g_;
  project_out(off);
  distance_ = off.norm();
  // Kita, Ono and Kobayashi (1999): sigma_xi = 1/sqrt(m), sigma_eta = 0.35/sqrt(n - m).
  sigma_xi_ = sigma_xi_given_ > 0.0 ? sigma_xi_given_ : 1.0 / std::sqrt(static_cast<double>(m));
  sigma_eta_ = sigma_eta_given_ > 0.0
                   ? sigma_eta_given_
                   : 0.35 / std::sqrt(static_cast<double>(std::max<Eigen::Index>(1, n - m)));
  z_.resize(n);
  w_.resize(n);
  coeff_.resize(k);
}

void unimodal_normal_crossover::project_out(Eigen::VectorXd& v) {
  coeff_.noalias() = basis_.transpose() * v;
  v.noalias() -= basis_ * coeff_;
}

void unimodal_normal_crossover::draw(random_stream& rng, const Eigen::MatrixXd& frame,
                                     Eigen::Ref<Eigen::VectorXd> child) {
  child = g_;
  for (Eigen::Index i = 0; i < d_.cols(); ++i)
    child += (sigma_xi_ * rng.ziggurat_normal()) * d_.col(i);
  rng.normals(z_);
  if (frame.size() > 0) {
    w_.noalias() = frame * z_;
  } else {
    w_ = z_;
  }
  project_out(w_);
  child += (sigma_eta_ * distance_) * w_;
}

}  // namespace kinevo::ga
