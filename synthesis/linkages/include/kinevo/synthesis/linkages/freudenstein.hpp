// Four-bar function generator through Freudenstein's equation,
//   k1 + k2 cos(phi) - k3 cos(psi) = cos(phi - psi),
// with k1 = (a1^2 + a2^2 - a3^2 + a4^2) / (2 a2 a4), k2 = a1 / a2, k3 = a1 / a4
// (Angeles et al., Diseño cinemático de maquinaria (1984), Grashof paper, eqs. (1)-(5)).
// Links: a1 frame, a2 input, a3 coupler, a4 output; psi input angle, phi output angle, both
// measured from the frame line O2 -> O4. A negative a2 or a4 means the angle is measured to the
// extension of that link (Grashof paper, Fig. 2).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "kinevo/core/outcome.hpp"

namespace kinevo::synthesis {

struct fourbar_links {
  double a1 = 1.0;  // frame
  double a2 = 0.0;  // input (signed)
  double a3 = 0.0;  // coupler (> 0)
  double a4 = 0.0;  // output (signed)
};

// Links for a given k (Grashof paper, eq. (5)), scaled so that the frame is `frame` long.
// Throws io::option_error ("k2", "k") when k2 or k3 vanish or the coupler length is imaginary.
fourbar_links links_from_k(const Eigen::Vector3d& k, double frame = 1.0);
Eigen::Vector3d k_from_links(const fourbar_links& links);

// The Freudenstein equations (Grashof paper, eqs. (3)-(4), (38)) for angles in radians:
// row i of A is [1, cos phi_i, -cos psi_i], b_i = cos(phi_i - psi_i).
void freudenstein_system(const std::vector<double>& psi, const std::vector<double>& phi,
                         Eigen::MatrixXd& a, Eigen::VectorXd& b);

struct freudenstein_fit {
  Eigen::Vector3d k = Eigen::Vector3d::Zero();
  Eigen::VectorXd residual;    // e = A k - b (Grashof paper, eq. (39)), unweighted
  double residual_norm = 0.0;  // ||e||
  double rcond = 0.0;          // exact synthesis only: condition estimate of A
  // ok when k is the fit; failed when the points do not determine k (reason "singular" for the
  // exact system, "rank_deficient" for least squares), its message naming the problem; k, the
  // residual and its norm then mean nothing (zero).
  core::summary summary;
};

// Exact synthesis through three precision points; a failed summary (reason "singular") when the
// three points do not determine k.
freudenstein_fit freudenstein_exact(const std::vector<double>& psi, const std::vector<double>& phi);

// Least squares through n >= 3 points by Householder QR; optional positive weights w_i scale
// the squared residuals. A failed summary (reason "rank_deficient") when the points do not
// determine k (a constant output angle, for one).
freudenstein_fit freudenstein_least_squares(const std::vector<double>& psi,
                                            const std::vector<double>& phi,
                                            const std::vector<double>& weights = {});

// n Chebyshev precision points on [lo, hi]: x_j = (lo+hi)/2 - (hi-lo)/2 cos((2j-1) pi / (2n)).
std::vector<double> chebyshev_spacing(double lo, double hi, int n);

}  // namespace kinevo::synthesis
