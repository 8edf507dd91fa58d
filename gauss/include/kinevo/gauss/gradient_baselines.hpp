// Classical gradient methods on the GA's own objective, for the comparison the
// generalized-inverse dissertation (GIGSP) proposes in sec. 6.2 (the GA against gradient methods
// on large problems). Both minimise the augmented Lagrangian of eq. 5.6,
//   Z1(a) = 1/2 |a - a_f|_M^2 + (A a - b)^T W (A a - b) + lambda^T (A a - b),
// with the GA's row-relative weights w_i = weight / (A_i M^-1 A_i^T) and the same multiplier
// loop (lambda += 2 W (A a - b) after each inner minimisation), from the same start a_f, and stop
// by the GA's rule (the iterate moves by at most tolerance * max(1, max|a|) and every residual
// is within what that could leave). They are not the GA: Newton factors H = M + 2 A^T W A.
//   conjugate_gradients: preconditioned CG on H a = M a_f - A^T lambda + 2 A^T W b with the
//     block-Jacobi preconditioner (H's diagonal blocks, one per body), each inner solve to a
//     relative residual inner_tolerance;
//   newton: one sparse Cholesky of H per outer iteration, one step.
// Evaluations count every gradient and every Hessian-vector product alike.
#pragma once

#include <string>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::gauss {

enum class gradient_method { conjugate_gradients, newton };
std::string to_string(gradient_method m);

struct gradient_baseline_options {
  gradient_method method = gradient_method::conjugate_gradients;
  double weight = 1e4;                // relative weight, as the GA's default preset
  int max_outer = 60;                 // multiplier updates
  double inner_tolerance = 1e-4;      // CG: relative residual of each inner solve
  int max_inner_per_coordinate = 10;  // CG iterations per inner solve: this times n
  double tolerance = 1e-9;            // the GA's stopping rule

  void validate() const;  // throws std::invalid_argument naming the field
};

// The constrained acceleration with status ok, or not_converged with a message; evaluations
// and runs (= outer iterations) filled in.
mechanics::acceleration_result solve_by_gradients(const mechanics::constrained_system& system,
                                                  const gradient_baseline_options& options);

}  // namespace kinevo::gauss
