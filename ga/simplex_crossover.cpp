#include "kinevo/ga/detail/simplex_crossover.hpp"

#include <cmath>

namespace kinevo::ga {

void simplex_crossover::prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents) {
  const auto mu = static_cast<double>(parents.cols());
  epsilon_ = epsilon_given_ > 0.0 ? epsilon_given_ : std::sqrt(mu + 1.0);
  o_ = parents.rowwise().mean();  // members: a generation allocates nothing once sized
  p_ = (epsilon_ * (parents.colwise() - o_)).colwise() + o_;
  c_.resize(parents.rows());
}

void simplex_crossover::draw(random_stream& rng, Eigen::Ref<Eigen::VectorXd> child) {
  c_.setZero();
  const Eigen::Index mu = p_.cols();
  for (Eigen::Index k = 1; k < mu; ++k) {
    // u^(1/k) = exp(-E/k) with E = -log u ~ Exp(1).
    const double r = std::exp(-rng.exponential() / static_cast<double>(k));
    c_ = r * (p_.col(k - 1) - p_.col(k) + c_);
  }
  child = p_.col(mu - 1) + c_;
}

}  // namespace kinevo::ga
