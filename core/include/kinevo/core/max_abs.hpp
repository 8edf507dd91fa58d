// The largest absolute entry of a vector or matrix, 0 for an empty one (Eigen's maxCoeff
// asserts on an empty argument). Residual and step sizes throughout the solvers are measured
// with it; defined once for every module.
#pragma once

#include <Eigen/Core>

namespace kinevo {

inline double max_abs(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  return a.size() == 0 ? 0.0 : a.cwiseAbs().maxCoeff();
}

}  // namespace kinevo
