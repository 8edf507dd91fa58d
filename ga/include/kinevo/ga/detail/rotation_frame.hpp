// An orthonormal frame that turns with the points it is built from: the Q of the QR
// decomposition of the centred points, with the signs chosen so that R has a non-negative
// diagonal. That factorisation is unique for points spanning the space, so the frame of the
// points Q_rot x_i is Q_rot times the frame of the x_i (to rounding). The multi-parent crossovers
// draw their isotropic noise in it: z ~ N(0, I) expressed in this frame has the same
// distribution as in the coordinate axes, and a run on a rotated problem then draws the rotated
// points of the unrotated run, not merely points of the same distribution.
#pragma once

#include <Eigen/Core>

namespace kinevo::ga {

// n x n orthonormal frame of the columns of `points` (n x m). Exactly covariant when the first
// n centred columns span R^n (m >= n + 1 points in general position); otherwise the columns
// beyond their rank are completed by the Householder reflections (still orthonormal, but no
// longer turning with the points).
Eigen::MatrixXd rotation_frame(const Eigen::Ref<const Eigen::MatrixXd>& points);

}  // namespace kinevo::ga
