// Simplex crossover (SPX): Tsutsui, Yamamura and Higuchi, "Multi-parent recombination with
// simplex crossover in real coded genetic algorithms", GECCO 1999. The mu parents' simplex is
// expanded about its centroid o by epsilon, p_k = o + epsilon (x_k - o), and a child is drawn
// uniformly inside it by the recurrence
//   C_0 = 0,  C_k = r_{k-1} (p_{k-1} - p_k + C_{k-1}),  r_{k-1} = u^(1/k),  k = 1..mu-1,
//   y = p_{mu-1} + C_{mu-1}
// (u uniform on (0, 1), fresh for each k). Only differences of parents are used, so the
// operator turns with the problem without a frame. Tsutsui et al. recommend mu = n + 1 and
// epsilon = sqrt(mu + 1). Cost: prepare O(mu n), one child O(mu n).
#pragma once

#include <Eigen/Core>

#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {

class simplex_crossover {
 public:
  simplex_crossover() = default;
  // epsilon <= 0 selects sqrt(mu + 1) for the parent count of prepare().
  explicit simplex_crossover(double epsilon) : epsilon_given_(epsilon) {}

  void prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents);
  void draw(random_stream& rng, Eigen::Ref<Eigen::VectorXd> child);

  const Eigen::MatrixXd& vertices() const { return p_; }  // the expanded simplex
  double epsilon() const { return epsilon_; }

 private:
  double epsilon_given_ = 0.0;
  double epsilon_ = 0.0;
  Eigen::MatrixXd p_;
  Eigen::VectorXd o_, c_;
};

}  // namespace kinevo::ga
