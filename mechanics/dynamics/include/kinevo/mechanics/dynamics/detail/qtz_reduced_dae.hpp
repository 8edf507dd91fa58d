// qtz-reduced: the reduced DAE of Del Citto, Pennestri and Vita, "Coordinates reduction and
// numerical integration of models of constrained multibody systems", eq. 46,
//   M q'' + Psi''_q^T lambda'_1 = g,   Psi''(q, t) = C Phi(q, t) = 0,
// with the r independent combined constraints Psi'' of the QTZ decomposition (eqs. 41-46,
// mechanics/solvers/qtz_decomposition.hpp), integrated implicitly by SUNDIALS IDA (variable-order,
// variable-step BDF with its own error control; the paper used Radau).
//
// Form given to IDA: the stabilized index-2 form of Gear, Gupta and Leimkuhler, with the
// multipliers entering through the derivatives of their integrals (lambda = Lambda',
// mu = eta'), in y = (q, v, Lambda, eta), sizes n, n, m, m:
//   q' = v - Psi''_q^T eta'_1                     (mu = eta' = 0 on the exact solution)
//   M(q) v' + Psi''_q^T Lambda'_1 = f(q, v, t)
//   Psi''(q, t) = C Phi(q, t) = 0                 (positions)
//   Psi''_q v + Psi''_t = C (Phi_q v + Phi_t) = 0  (velocities)
//   Lambda_2 = 0,  eta_2 = 0                       (the m - r dropped combinations)
// Why this form: both the position and the velocity constraints hold at every step (no drift,
// no Baumgarte constants, no projection between steps); the index is 2, so BDF converges
// without the index-3 step-size troubles; Lambda and eta are excluded from the error test
// (IDASetId, IDASetSuppressAlg). Integrated multipliers: IDA's Newton corrects Lambda, whose
// corrections are h / alpha times those of lambda, so the iteration stays well scaled as h
// shrinks (with lambda itself as unknown, the first steps, at h ~ 1e-10, did not converge).
//
// Redundant rows and rank changes: the multipliers keep the fixed size m (the m - r dropped
// combinations' residuals are the integrated multipliers themselves), so the iteration matrix
// stays regular with redundant rows. C is frozen between re-bases: C Phi = 0 describes the
// same manifold as Phi = 0 near the state where C was computed. After every IDA step the QTZ
// decomposition is recomputed (rows redundant to rank_tolerance, and combinations whose
// singular value of the M-weighted Jacobian Phi_q M^-1/2 is below 2e-3 times the largest one,
// or whose unweighted QTZ pivot is below 1e-3 times the largest one, count as dependent: the
// singular window, see qtz_reduced_dae.cpp); when the rank r changed, or the frozen C Phi_q has
// lost its conditioning (its smallest singular value below half of Phi_q's r-th), C is replaced,
// the state projected onto all constraints (project_weighted, newton_tolerance), the multipliers
// recomputed from the acceleration-level system and IDA re-initialised with its last step size.
// Through the parallelogram's flat configurations (Phi_q rank 2 -> 1 in relative angles, 8 -> 7
// built from bodies) the degenerate combination is dropped for a few ms around each crossing and
// restored after.
//
// Error control and iteration matrix: the absolute tolerances of q and v scale with the size
// of the state (a coordinate that stays near zero does not get the bare atol), and the
// iteration matrix is assembled from the residual's structure (IDASetJacFn) rather than by
// IDA's difference quotients; both were needed for the model built from bodies, whose coupler
// angle is identically zero (qtz_reduced_dae.cpp, set_tolerances and jacobian).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>

#include "kinevo/mechanics/dynamics/detail/full_coordinates.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/qtz_solver.hpp"

namespace kinevo::mechanics {

class model;
struct simulation_options;

// Why advance_to failed.
enum class dae_failure {
  none,
  step_size,      // the step size fell below dt_min, repeated error-test failures, too much work
  not_converged,  // Newton iteration, singular iteration matrix, residual not computable
  // The model turned NaN or infinite at the states IDA tried in the failed step (a constraint
  // outside its domain): message() names its rows, as the other formulations do.
  non_finite,
};

class qtz_reduced_dae {
 public:
  // Throws io::input_error naming the nonholonomic rows when the model has any, and
  // core::resource_error when SUNDIALS cannot allocate its memory. (q0, qd0) must satisfy the
  // constraints (a loaded model's initial state does).
  qtz_reduced_dae(const model& m, const formulation_options& fo, const simulation_options& so,
                  const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, double t0);
  ~qtz_reduced_dae();
  qtz_reduced_dae(const qtz_reduced_dae&) = delete;
  qtz_reduced_dae& operator=(const qtz_reduced_dae&) = delete;

  // Integrates to exactly t_out (IDA_NORMAL with t_out as the stop time, so the state is a step
  // result that satisfies the constraints, not an interpolation) and returns (q, q') there.
  // false when IDA failed: message() says why in plain words with the time, failure() how.
  bool advance_to(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& qd);

  long long steps() const;                // IDA's internal steps, over all re-initialisations
  long long error_test_failures() const;  // rejected steps (local error test)
  long long rebases() const;              // re-bases of C (rank or conditioning changes)
  // Which LU factorised IDA's last iteration matrix: KLU (true) or the dense
  // blocked LU (iteration_matrix_lu.hpp).
  bool sparse_lu() const;
  // Model evaluations spent on the differenced part of the iteration matrix (2 per column group
  // and setup, plus the pattern's), and the column groups of q and of v at the last setup.
  long long differenced_evaluations() const;
  int column_groups() const;
  int rank() const;  // r of the current combination C
  // For tests, before the first advance_to: IDA's iteration matrix zeroed before every setup
  // and the sparse LU reading all of it (no structure announced), as before the assembly kept
  // its zeros; the answers must be the same bit for bit.
  void use_reference_assembly();
  dae_failure failure() const;
  const std::string& message() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// The formulation object of qtz-reduced for the simulation's bookkeeping: the integrated state
// is (q, q') as for `full`, and nothing is corrected after a step (the DAE keeps the
// constraints itself). The integration is qtz_reduced_dae's (dae_stepper.cpp).
class qtz_reduced_formulation : public full_coordinates {
 public:
  // Throws io::input_error naming the nonholonomic rows when the model has any.
  qtz_reduced_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::qtz_reduced; }
  // The records' accelerations and constraint forces: the QTZ solver's (eqs. 62-67).
  acceleration_solver& solver(acceleration_solver& /*user*/) override { return solver_; }
  step_outcome after_step(double, double, double, Eigen::VectorXd&) override {
    return step_outcome::unchanged;
  }

 private:
  qtz_solver solver_;
};

}  // namespace kinevo::mechanics
