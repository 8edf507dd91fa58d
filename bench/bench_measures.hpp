// Measures the Gauss benchmarks share: the process's CPU time and the scaled error of an
// acceleration against its reference.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <ctime>
#include <limits>

namespace kinevo::bench {

// CPU time of the whole process (all threads): on a shared machine the wall time is inflated by
// the other jobs, the CPU time much less so.
inline double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// max |a - ref| / max(1, max |ref|); infinite when the sizes differ.
inline double scaled_error(const Eigen::VectorXd& a, const Eigen::VectorXd& ref) {
  if (a.size() != ref.size()) return std::numeric_limits<double>::infinity();
  return (a - ref).cwiseAbs().maxCoeff() / std::max(1.0, ref.cwiseAbs().maxCoeff());
}

}  // namespace kinevo::bench
