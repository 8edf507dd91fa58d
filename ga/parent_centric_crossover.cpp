#include "kinevo/ga/detail/parent_centric_crossover.hpp"

#include <algorithm>
#include <cmath>

namespace kinevo::ga {

void parent_centric_crossover::prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents) {
  // Written into members so that a generation allocates nothing once the sizes are known.
  const Eigen::Index mu = parents.cols();
  index_ = parents.col(0);
  d_ = index_ - parents.rowwise().mean();
  const double norm = d_.norm();
  has_direction_ = norm > 0.0;
  if (has_direction_) {
    unit_d_ = d_ / norm;
  } else {
    unit_d_.setZero(d_.size());
  }
  // Dbar: perpendicular distances of the other parents from the line x^(p) + t d (eq. 4).
  double sum = 0.0;
  for (Eigen::Index i = 1; i < mu; ++i) {
    w_ = parents.col(i) - index_;
    const double along = unit_d_.dot(w_);
    sum += std::sqrt(std::max(0.0, w_.squaredNorm() - along * along));
  }
  mean_distance_ = mu > 1 ? sum / static_cast<double>(mu - 1) : 0.0;
  z_.resize(d_.size());
  w_.resize(d_.size());
}

void parent_centric_crossover::draw(random_stream& rng, const Eigen::MatrixXd& frame,
                                    Eigen::Ref<Eigen::VectorXd> child) {
  rng.normals(z_);
  if (frame.size() > 0) {
    w_.noalias() = frame * z_;
  } else {
    w_ = z_;
  }
  if (has_direction_) w_ -= unit_d_.dot(w_) * unit_d_;  // P z
  along_ = rng.ziggurat_normal();
  child = index_ + (sigma_zeta_ * along_) * d_ + (sigma_eta_ * mean_distance_) * w_;
}

void parent_centric_crossover::normalised_step(Eigen::Ref<Eigen::VectorXd> y) const {
  const double across = sigma_eta_ * mean_distance_;
  const double along = sigma_zeta_ * d_.norm();
  const double ratio = across > 0.0 ? std::min(3.0, along / across) : 3.0;
  y = w_ + (ratio * along_) * unit_d_;
}

double parent_centric_crossover::step_scale() const {
  const double across = sigma_eta_ * mean_distance_;
  const double along = sigma_zeta_ * d_.norm();
  return across > 0.0 && along / across <= 3.0 ? across : 0.0;
}

}  // namespace kinevo::ga
