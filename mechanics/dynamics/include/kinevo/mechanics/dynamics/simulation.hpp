// Forward dynamics of a model with any acceleration solver: integrator, constraint-violation
// control, and one record per step. Stages of one step (MuJoCo-style, plainly named):
//   evaluate (M, f, A, b) -> stabilize b -> solve for a -> integrate -> project (optional).
#pragma once

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "kinevo/core/run_context.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/dynamics/simulation_result.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

struct simulation_options {
  integrator_kind integrator = integrator_kind::rk4;
  double t_start = 0.0;
  double t_end = 1.0;
  // RK4 step; Dormand-Prince output interval (records) and first step; qtz-reduced (IDA) output
  // interval.
  double dt = 1e-3;
  double rtol = 1e-9, atol = 1e-12;  // Dormand-Prince error control
  double dt_min = 1e-12;             // Dormand-Prince gives up below this step
  // Intermittent constraints (docs/intermittent.md): a switch is located to this time (s).
  double event_tolerance = 1e-10;

  stabilization_kind stabilization = stabilization_kind::none;
  double baumgarte_alpha = 5.0;  // 1/s
  double baumgarte_beta = 5.0;   // 1/s
  double baumgarte_gamma = 5.0;  // 1/s, nonholonomic rows
  double projection_tolerance = 1e-12;
  int projection_iterations = 8;

  // How the constraints enter the integration (mechanics/dynamics/formulation.hpp,
  // docs/formulations.md): `full` integrates every coordinate with the given solver and
  // `stabilization`.
  formulation_options formulation;

  int record_every = 1;  // keep every k-th record (the callback still sees every step)
  // Compute violations and energy for each record; off for timing the bare step loop (the
  // record fields are then 0 / NaN).
  bool diagnostics = true;
  // A refused solve (inconsistent, singular) ends the run with a message; a least-squares
  // solve is counted, flagged in the records, and the run continues.
  bool stop_on_refusal = true;
  // A solve that did not converge (not_converged, an iterative solver such as the GA) ends the
  // run before its state is recorded: its acceleration is not the constrained one. When
  // allowed, the run goes on; the solve is counted and flagged in the records either way.
  bool allow_unconverged = false;

  // Divergence (docs/mechanics.md, "Divergence"): the run stops with simulation_stop::diverged
  // at the first record where
  //   max |q_i| > divergence_growth * S_q  or  max |q'_i| > divergence_growth * S_v,
  //   max |Phi_i| > divergence_violation * S_p^2 (holonomic rows, with diagnostics on),
  //   |E - E_0| > divergence_energy * max(1, |E_0|) (when the model defines an energy E),
  // where the run's scales come from the first record (state q_0, q'_0, acceleration a_0 and
  // the span T = t_end - t_start):
  //   S_p = 1 + max |q_0|, S_q = S_p + T max |q'_0| + T^2/2 max |a_0|,
  //   S_v = 1 + max |q'_0| + T max |a_0|.
  // Generous on purpose: a stable run stays orders of magnitude below them, while an unstable
  // one (a step too large for a stiff force) crosses them within a few steps.
  bool check_divergence = true;
  double divergence_growth = 1e6;
  double divergence_violation = 1e3;
  double divergence_energy = 1e6;

  // Throws io::option_error naming the field and its allowed range: times finite with
  // t_end > t_start, dt, rtol (< 1), dt_min and projection_tolerance finite and > 0, atol and the
  // Baumgarte rates finite and >= 0, record_every and projection_iterations >= 1, the divergence
  // limits finite and > 0 (divergence_growth and divergence_energy > 1), and
  // formulation.validate().
  // simulate() and simulate_from() call it.
  void validate() const;
};

// Called for every step record (including t_start); return false to stop the run.
using step_callback = std::function<bool(const step_record&)>;

// Keeps every k-th record (record_every) and the last, and folds the solve flags of the
// records it drops into the next one it keeps, so that a kept record's worst_status and
// unconverged_solves cover every solve since the previous kept record. The simulation uses it
// for its own records; a step callback writing rows uses it the same way.
class record_thinner {
 public:
  explicit record_thinner(int every) : every_(every < 1 ? 1 : every) {}
  // Whether `r` is kept (always when `last`); if so its flags now include the dropped ones.
  bool keep(step_record& r, bool last);

 private:
  int every_;
  long long index_ = 0;
  solve_status dropped_worst_ = solve_status::ok;
  int dropped_unconverged_ = 0;
};

// Runs the simulation. With a callback, records are passed to it and not kept; without one,
// they are collected into the result. `reference`, when given, is solved at the same state as
// the first stage of each step and its difference recorded (for `kinevo simulate --check`).
//
// The run context (core/run_context.hpp): its interrupt flag ends the run at the next record
// with simulation_stop::interrupted (that record is the run's last), agreed at every record
// through context.agree (processes integrating the same run in lockstep, MPI ranks sharing the
// GA solver, stop at the same record); each record is a progress point ("t = 0.125").
simulation_result simulate(const model& m, acceleration_solver& solver,
                           const simulation_options& options, const step_callback& on_step = {},
                           acceleration_solver* reference = nullptr,
                           const core::run_context& context = {});

// The same from an explicit initial state (q0, qd0) instead of the model's.
simulation_result simulate_from(const model& m, const Eigen::VectorXd& q0,
                                const Eigen::VectorXd& qd0, acceleration_solver& solver,
                                const simulation_options& options,
                                const step_callback& on_step = {},
                                acceleration_solver* reference = nullptr,
                                const core::run_context& context = {});

// Column names of a simulation CSV for this model: t, q..., <q>_dot..., <q>_ddot...,
// position_violation, velocity_violation, energy (when the model defines it), fc_<q>...,
// reference_difference when `with_reference`, then solve_status (worst_status as its code:
// 0 ok, 1 least_squares, 2 inconsistent, 3 singular, 4 not_converged) and unconverged_solves,
// then <row>_active (1 on, 0 off) per intermittent constraint and <row>_slip (its
// velocity-level value C, the slip velocity) per intermittent constraint.
std::vector<std::string> record_columns(const model& m, bool with_reference);
std::vector<double> record_row(const model& m, const step_record& r, bool with_reference);

}  // namespace kinevo::mechanics
