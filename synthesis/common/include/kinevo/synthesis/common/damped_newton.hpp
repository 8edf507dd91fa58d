// Damped Newton-Raphson for square nonlinear systems F(x) = 0, after subroutine NRDAMP of
// Angeles et al., Diseño cinemático de maquinaria (1984): an LU step with a condition estimate,
// halved while the residual does not fall.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <string>

namespace kinevo::synthesis {

struct damped_newton_options {
  double tol_x = 1e-6;       // TOLX: converged when ||dx||_inf <= tol_x (1 + ||x||_inf) ...
  double tol_f = 1e-6;       // TOLF: ... and ||F||_inf <= tol_f
  double damping = 0.5;      // DAMP: factor applied to a step that does not lower ||F||_inf
  int max_halvings = 100;    // KMAX: halvings per iteration before declaring divergence
  int max_iterations = 200;  // MAX
  double min_rcond = 1e-13;  // below this reciprocal condition estimate the Jacobian is singular
};

enum class newton_status { converged, singular_jacobian, diverged, max_iterations, stopped };

std::string to_string(newton_status s);

struct damped_newton_result {
  Eigen::VectorXd x;
  newton_status status = newton_status::max_iterations;
  int iterations = 0;
  double residual_inf = 0.0;  // ||F(x)||_inf at the returned x
  double rcond = 0.0;         // condition estimate of the last Jacobian factorised
  bool ok() const { return status == newton_status::converged || status == newton_status::stopped; }
};

// Evaluates F(x) into f and, when jacobian is non-null, dF/dx into it. Returns false when x lies
// outside the domain of F (e.g. an infeasible point of a barrier function): such a trial step is
// treated like one that does not lower the residual and is halved.
using system_function =
    std::function<bool(const Eigen::VectorXd& x, Eigen::VectorXd& f, Eigen::MatrixXd* jacobian)>;

// Solves F(x) = 0 from x0 (which must lie in the domain). `stop_when`, if given, is called with
// every accepted iterate and ends the iteration early (status stopped) when it returns true.
damped_newton_result damped_newton(
    const system_function& system, const Eigen::VectorXd& x0,
    const damped_newton_options& options = {},
    const std::function<bool(const Eigen::VectorXd&)>& stop_when = {});

}  // namespace kinevo::synthesis
