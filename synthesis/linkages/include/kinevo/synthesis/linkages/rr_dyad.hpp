// RR dyad for rigid-body guidance (Angeles et al., Diseño cinemático de maquinaria (1984),
// Householder paper, eqs. (13)-(15)): find the circle point a0 and centre point b such that
//   f_j = |e^{i(theta_j - theta_0)} (a0 - r0) + r_j - b|^2 - |a0 - b|^2 = 0,  j = 1..n,
// exactly through 5 poses (damped Newton), in the least-squares sense through more
// (Gauss-Newton with Householder QR), from many random starts.
#pragma once

#include <Eigen/Core>
#include <complex>
#include <cstdint>
#include <vector>

#include "kinevo/core/run_context.hpp"

namespace kinevo::synthesis {

struct pose {
  double x = 0.0, y = 0.0;  // reference point R
  double theta = 0.0;       // radians
};

// f_j, j = 1..n (pose 0 is the reference), for x = (Re a0, Im a0, Re b, Im b); the Jacobian
// (n x 4) when non-null.
void dyad_residuals(const std::vector<pose>& poses, const Eigen::Vector4d& x, Eigen::VectorXd& f,
                    Eigen::MatrixXd* jacobian = nullptr);

// The source document's error measure, (1/n) sum_j sqrt|f_j| / |a0 - b| (Householder paper, eq.
// (15) and the text after it), as a fraction (0.39 = 39 %).
double dyad_error_measure(const std::vector<pose>& poses, const Eigen::Vector4d& x);

struct dyad_solution {
  std::complex<double> a0;  // circle point in the reference pose
  std::complex<double> b;   // centre point (fixed pivot)
  double error = 0.0;       // dyad_error_measure
  double residual_norm = 0.0;
  int found = 0;  // how many starts converged to this solution
};

struct dyad_options {
  int starts = 100;
  std::uint64_t seed = 1;
  int keep = 5;  // best distinct solutions returned

  // Throws io::option_error naming the field: starts in [1, max_dyad_starts], keep in
  // [1, max_dyad_starts].
  void validate() const;
};

// Every start's solution is kept until the distinct ones are sorted out, and each start is a
// Gauss-Newton solve: 1e6 starts ran for hours; 10^4 (a hundred times the 100 the source
// document uses) take seconds.
inline constexpr int max_dyad_starts = 10'000;

// Distinct solutions, best error first. Needs at least 5 poses with theta_j != theta_0.
// Reports progress to the context after each start ("start 3/100").
std::vector<dyad_solution> dyad_synthesis(const std::vector<pose>& poses,
                                          const dyad_options& options,
                                          const core::run_context& context = {});

}  // namespace kinevo::synthesis
