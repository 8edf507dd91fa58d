// An Eigen vector's entries as a std::vector (reports, JSON and the Python interface take
// std::vector<double>); defined once for every module.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace kinevo {

inline std::vector<double> to_vector(const Eigen::Ref<const Eigen::VectorXd>& v) {
  return {v.data(), v.data() + v.size()};
}

}  // namespace kinevo
