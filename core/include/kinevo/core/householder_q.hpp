// The orthogonal factor Q of Eigen's Householder-based decompositions as a dense matrix, and Q
// applied to a vector. Compiled once in kinevo_core (householder_q.cpp): evaluating Eigen's
// HouseholderSequence instantiates its blocked kernels, several seconds of compile time in every
// file that does it (docs/build.md). The results are Eigen's own, unchanged.
#pragma once

#include <Eigen/Dense>

namespace kinevo {

/// Q (rows x rows) of a Householder QR.
Eigen::MatrixXd householder_q(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr);
/// Q (rows x rows) of a column-pivoting Householder QR.
Eigen::MatrixXd householder_q(const Eigen::ColPivHouseholderQR<Eigen::MatrixXd>& qr);
/// Q (rows x rows) of a complete orthogonal decomposition (A P = Q T Z).
Eigen::MatrixXd householder_q(const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod);
/// The first `columns` columns of Q, without forming the rest.
Eigen::MatrixXd householder_q_columns(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr,
                                      Eigen::Index columns);
/// Q v.
Eigen::VectorXd householder_q_times(const Eigen::HouseholderQR<Eigen::MatrixXd>& qr,
                                    const Eigen::VectorXd& v);

}  // namespace kinevo
