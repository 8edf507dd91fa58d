#include "kinevo/core/householder_q.hpp"

namespace kinevo {

Eigen::MatrixXd householder_q(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr) {
  return qr.householderQ();
}

Eigen::MatrixXd householder_q(const Eigen::ColPivHouseholderQR<Eigen::MatrixXd>& qr) {
  return qr.householderQ();
}

Eigen::MatrixXd householder_q(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod) {
  return cod.householderQ();
}

Eigen::MatrixXd householder_q_columns(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr,
                                      Eigen::Index columns) {
  return qr.householderQ() * Eigen::MatrixXd::Identity(qr.rows(), columns);
}

Eigen::VectorXd householder_q_times(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr,
                                    const Eigen::VectorXd& v) {
  return qr.householderQ() * v;
}

}  // namespace kinevo
