#include "kinevo/ga/detail/rotation_frame.hpp"
#include "kinevo/core/householder_q.hpp"

#include <Eigen/QR>
#include <algorithm>

namespace kinevo::ga {

Eigen::MatrixXd rotation_frame(const Eigen::Ref<const Eigen::MatrixXd>& points) {
  const Eigen::Index n = points.rows();
  const Eigen::MatrixXd centred = points.colwise() - points.rowwise().mean();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(centred);
  Eigen::MatrixXd q = householder_q(qr);
  // Householder QR picks the sign of each R_jj from the coordinates; flipping column j of Q
  // with row j of R makes R_jj >= 0, the factorisation that does not depend on the axes.
  const Eigen::Index k = std::min(n, centred.cols());
  for (Eigen::Index j = 0; j < k; ++j) {
    if (qr.matrixQR()(j, j) < 0.0) q.col(j) = -q.col(j);
  }
  return q;
}

}  // namespace kinevo::ga
