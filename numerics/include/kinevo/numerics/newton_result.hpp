// The one result and status of the Newton / least-squares family: where the iteration ended,
// its status word and the core::summary every kinevo result embeds.
#pragma once

#include <Eigen/Core>
#include <string>

#include "kinevo/core/outcome.hpp"

namespace kinevo::numerics {

enum class newton_status {
  converged,
  singular_jacobian,  // the step solver refused: J singular or rank deficient
  diverged,           // no step length lowers the residual
  max_iterations,
  stopped,     // the caller's stop_when ended the iteration at an accepted iterate
  non_finite,  // the residual is NaN or infinite
};

// The description a report prints ("converged", "singular Jacobian", ...).
std::string to_string(newton_status s);
// The status word of a summary ("converged", "singular_jacobian", ...).
std::string status_word(newton_status s);

struct newton_result {
  Eigen::VectorXd x;
  newton_status status = newton_status::max_iterations;
  int iterations = 0;
  // The residual at x in the driver's norm: ||f||_inf (damped_newton, max |f| for the
  // step-solver variant) or ||f||_2 (gauss_newton).
  double residual = 0.0;
  double rcond = 0.0;  // damped_newton: condition estimate of the last Jacobian factorised
  // ok for converged and stopped; not_converged at the iteration limit; failed otherwise, with
  // the status word as reason and its description as message. Set by end().
  core::summary summary;

  bool ok() const { return status == newton_status::converged || status == newton_status::stopped; }
  // Sets status, summary and iterations (and returns *this): every driver ends through it.
  newton_result& end(newton_status s);
};

}  // namespace kinevo::numerics
