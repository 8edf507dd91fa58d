#include "kinevo/numerics/newton_result.hpp"

namespace kinevo::numerics {

std::string to_string(newton_status s) {
  switch (s) {
    case newton_status::converged:
      return "converged";
    case newton_status::singular_jacobian:
      return "singular Jacobian";
    case newton_status::diverged:
      return "diverged (no step length lowers the residual)";
    case newton_status::max_iterations:
      return "iteration limit reached";
    case newton_status::stopped:
      return "stopped";
    case newton_status::non_finite:
      return "residual is not finite";
  }
  return "unknown";
}

std::string status_word(newton_status s) {
  switch (s) {
    case newton_status::converged:
      return "converged";
    case newton_status::singular_jacobian:
      return "singular_jacobian";
    case newton_status::diverged:
      return "diverged";
    case newton_status::max_iterations:
      return "max_iterations";
    case newton_status::stopped:
      return "stopped";
    case newton_status::non_finite:
      return "non_finite";
  }
  return "unknown";
}

newton_result& newton_result::end(newton_status s) {
  status = s;
  if (ok()) {
    summary = core::summary::ended(core::termination::ok, status_word(s));
  } else {
    summary =
        core::summary::ended(s == newton_status::max_iterations ? core::termination::not_converged
                                                                : core::termination::failed,
                             status_word(s), "Newton: " + to_string(s));
  }
  summary.iterations = iterations;
  return *this;
}

}  // namespace kinevo::numerics
