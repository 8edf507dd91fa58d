// Unimodal normal distribution crossover with m parents, UNDX-m: Ono and Kobayashi, "A real-coded
// genetic algorithm for function optimization using unimodal normal distribution crossover",
// ICGA 1997 (m = 2), generalised by Kita, Ono and Kobayashi, "Multi-parental extension of the
// unimodal normal distribution crossover for real-coded genetic algorithms", CEC 1999. Of mu
// parents the first m = mu - 1 are primary: g is their centroid and d_i = x_i - g; the last
// parent's distance D from the affine subspace they span sets the spread across it:
//   y = g + sum_{i=1..m} w_i d_i + D v,   w_i ~ N(0, sigma_xi^2),
// v ~ N(0, sigma_eta^2) in each direction perpendicular to the primary subspace (P z with z
// ~ N(0, I_n) expressed in a rotation frame, P the projector onto that complement). Kita et
// al.'s sigma_xi = 1 / sqrt(m), sigma_eta = 0.35 / sqrt(n - m) are chosen so that the children
// keep the parents' spread (m = 2 gives Ono and Kobayashi's sigma_xi = 1/2 along x_2 - x_1). The
// basis of the primary subspace is Householder QR's; cost: prepare O(n m^2), one child O(n^2) in a
// frame, O(n m) in the coordinate axes. Unlike the other operators, prepare() allocates (the
// QR and its thin Q), once per generation.
#pragma once

#include <Eigen/Core>

#include "kinevo/ga/detail/random_stream.hpp"

namespace kinevo::ga {

class unimodal_normal_crossover {
 public:
  unimodal_normal_crossover() = default;
  // sigma <= 0 selects Kita et al.'s value for the dimension and parent count of prepare().
  unimodal_normal_crossover(double sigma_xi, double sigma_eta)
      : sigma_xi_given_(sigma_xi), sigma_eta_given_(sigma_eta) {}

  // parents: n x mu (mu >= 3), the last one the secondary parent.
  void prepare(const Eigen::Ref<const Eigen::MatrixXd>& parents);
  void draw(random_stream& rng, const Eigen::MatrixXd& frame, Eigen::Ref<Eigen::VectorXd> child);

  const Eigen::VectorXd& centroid() const { return g_; }
  double distance() const { return distance_; }
  double sigma_xi() const { return sigma_xi_; }
  double sigma_eta() const { return sigma_eta_; }
  // Orthonormal basis (n x (m - 1)) of the primary parents' subspace.
  const Eigen::MatrixXd& basis() const { return basis_; }

 private:
  void project_out(Eigen::VectorXd& v);  // v -= basis basis^T v

  double sigma_xi_given_ = 0.0;
  double sigma_eta_given_ = 0.0;
  double sigma_xi_ = 0.0;
  double sigma_eta_ = 0.0;
  Eigen::VectorXd g_, z_, w_, coeff_;
  Eigen::MatrixXd d_, basis_;
  double distance_ = 0.0;
};

}  // namespace kinevo::ga
