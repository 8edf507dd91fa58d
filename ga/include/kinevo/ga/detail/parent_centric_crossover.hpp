// Parent-centric recombination (PCX): Deb, Anand and Joshi, "A computationally efficient
// evolutionary algorithm for real-parameter optimization", Evolutionary Computation 10(4), 2002,
// sec. 3, eq. (4). With mu parents x^(1..mu), x^(p) the index parent, g their centroid and
// d = x^(p) - g, a child is
//   y = x^(p) + w_zeta d + w_eta Dbar P z,   w_zeta ~ N(0, sigma_zeta^2), w_eta ~ N(0, sigma_eta^2)
// where Dbar is the mean perpendicular distance of the other mu - 1 parents from the line through
// x^(p) along d, P = I - d d^T / |d|^2 projects onto the space perpendicular to d and z ~ N(0, I_n)
// (as the authors' code draws it: the perpendicular spread covers all n - 1 directions, not only
// those the parents span). z is expressed in a rotation frame (ga/detail/rotation_frame.hpp) so
// that the arithmetic turns with the problem. Cost: prepare O(mu n), one child O(n^2) in a frame
// (the product frame * z), O(n) in the coordinate axes.
#pragma once

#include <Eigen/Core>

#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {

class parent_centric_crossover {
 public:
  parent_centric_crossover() = default;
  parent_centric_crossover(double sigma_zeta, double sigma_eta)
      : sigma_zeta_(sigma_zeta), sigma_eta_(sigma_eta) {}

  // parents: n x mu, column 0 the index parent. The children of one parent set share this.
  void prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents);
  // One child; `frame` is n x n orthonormal, or empty for the coordinate axes.
  void draw(random_stream& rng, const Eigen::MatrixXd& frame, Eigen::Ref<Eigen::VectorXd> child);

  // The last child's step from the index parent in units of the spread across d,
  // sigma_eta Dbar: the projected noise P z plus the draw along d scaled by
  // sigma_zeta |d| / (sigma_eta Dbar), at most 3 (parents nearly on one line would otherwise
  // make that one step outweigh all others). What learned_metric learns from.
  void normalised_step(Eigen::Ref<Eigen::VectorXd> y) const;
  // s with child - index parent = s * normalised_step() (in exact arithmetic): sigma_eta Dbar,
  // or 0 when the draw along d was capped or Dbar = 0 (the step is then not a multiple of y).
  double step_scale() const;

  // d = x^(p) - g and Dbar of the prepared parents.
  const Eigen::VectorXd& direction() const { return d_; }
  double mean_distance() const { return mean_distance_; }

 private:
  double sigma_zeta_ = 0.1;
  double sigma_eta_ = 0.1;
  Eigen::VectorXd index_, d_, unit_d_, z_, w_;
  double mean_distance_ = 0.0;
  double along_ = 0.0;          // the last child's N(0, 1) draw along d
  bool has_direction_ = false;  // |d| > 0: the index parent is not the centroid
};

}  // namespace kinevo::ga
