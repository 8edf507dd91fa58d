// The one options struct of the Newton / least-squares family (damped_newton.hpp,
// gauss_newton.hpp): tolerances, the damping of the backtracking line search and the limits.
// NRDAMP's names (Angeles et al., Diseño cinemático de maquinaria (1984)) in the comments.
#pragma once

namespace kinevo::numerics {

struct newton_options {
  // TOLX: damped_newton converges when ||dx||_inf <= tol_x (1 + ||x||_inf), gauss_newton when
  // ||dx||_2 <= tol_x (1 + ||x||_2), the step-solver variant when max |dx| < tol_x.
  double tol_x = 1e-6;
  double tol_f = 1e-6;       // TOLF: ... and ||f||_inf within tol_f (not used by gauss_newton)
  double damping = 0.5;      // DAMP: factor applied to a step that does not lower the residual
  int max_halvings = 100;    // KMAX: damping factors per iteration
  int max_iterations = 200;  // MAX
  double min_rcond = 1e-13;  // damped_newton: below this LU condition estimate J is singular

  // Gauss-Newton's defaults: tol_x 1e-10, 100 iterations, 30 halvings.
  static newton_options gauss_newton_defaults();

  // Throws io::option_error naming the field.
  void validate() const;
};

}  // namespace kinevo::numerics
