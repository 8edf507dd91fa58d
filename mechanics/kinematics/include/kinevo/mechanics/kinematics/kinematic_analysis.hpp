// Kinematic analysis of a driven model over time (Haug, Computer-Aided Kinematics and Dynamics
// of Mechanical Systems, ch. 4: the DADS organisation of secs. 4.1-4.2, Newton-Raphson of
// secs. 4.3 and 4.5): at each time of a grid, the position by Newton-Raphson on
// Phi(q, t) = 0, iterated as Phi_q(q^i) dq = -Phi(q^i), q^(i+1) = q^i + dq; the velocity from
// Phi_q q' = nu = -Phi_t and the acceleration from Phi_q q'' = gamma (gamma as in eq. 4.2.3),
// both with one factorisation of Phi_q. The next position is predicted by
// q + dt q' + dt^2/2 q''.
//
// Convergence is diagnosed from the iterates: quadratic at a regular root, linear (the error
// shrinking by a roughly constant factor < 1, e.g. halving in Haug's Table 4.3.2) at a singular
// root, none when the iteration cap is reached, the iterates wander or grow (Table 4.3.3: no
// root exists). A failed solve never returns its last iterate as a position: the analysis
// reports the time and stops.
#pragma once

#include <Eigen/Core>

#include "kinevo/core/run_context.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis_result.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

// Newton-Raphson on the holonomic constraints Phi(q, t) = 0 from `q_start` (the model must be
// square: as many holonomic constraints as coordinates, no nonholonomic ones; throws
// io::input_error otherwise, see check_kinematically_determined). Validates `options`.
position_solution solve_position(const model& m, const Eigen::VectorXd& q_start, double t,
                                 const newton_options& options = {});

// Throws io::input_error unless the model is kinematically determined in shape: no
// nonholonomic constraints and as many holonomic constraints (drivers included) as
// coordinates. The message names the model, the counts, and how many drivers are missing or
// which rows are too many.
void check_kinematically_determined(const model& m);

struct kinematic_analysis_options {
  double t_start = 0.0;  // the first time; the model's initial positions are its first guess
  double t_end = 1.0;    // the last time (the grid ends exactly there)
  double dt = 0.01;      // grid step
  newton_options newton;
  // Throws io::option_error naming the field: times finite, t_end >= t_start, dt > 0, at most
  // 10^7 grid steps, and the Newton-Raphson options.
  void validate() const;
};

// Position, velocity and acceleration at every time t_start, t_start + dt, ..., t_end (Haug,
// sec. 4.5). Checks the model (check_kinematically_determined) and the options first (throwing);
// a time without a position (Newton-Raphson not converged), a singular root or a rank-deficient
// Phi_q, or a non-finite value stops the analysis with completed = false and the message
// naming the time; the steps before are kept.
// context.interrupt is polled once per time step; when it is raised the analysis stops (stop
// reason "interrupted") and keeps the steps computed.
kinematic_analysis_result analyse_kinematics(const model& m,
                                             const kinematic_analysis_options& options,
                                             const core::run_context& context = {});

}  // namespace kinevo::mechanics
