// Forward dynamics of a model with any acceleration solver: integrator, constraint-violation
// control, and one record per step. Stages of one step (MuJoCo-style, plainly named):
//   evaluate (M, f, A, b) -> stabilize b -> solve for a -> integrate -> project (optional).
#pragma once

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "mechanics/acceleration_solver.hpp"
#include "mechanics/model.hpp"

namespace kinevo::mechanics {

enum class integrator_kind {
  rk4,             // classical Runge-Kutta, fixed step dt
  dormand_prince,  // Dormand-Prince 5(4), error control (rtol, atol), records at dt by dense output
};

enum class stabilization_kind {
  none,
  // b* = b - 2 alpha Phi' - beta^2 Phi (holonomic), b* = b - gamma C (nonholonomic)
  // (generalized-inverse dissertation (GIGSP), eqs. 2.39-2.45).
  baumgarte,
  // After each step, Newton projection of q onto Phi = 0 and of q' onto the velocity
  // constraints with weight M (generalized-inverse dissertation (GIGSP), eqs. 2.46-2.53).
  projection,
};

struct simulation_options {
  integrator_kind integrator = integrator_kind::rk4;
  double t_start = 0.0;
  double t_end = 1.0;
  double dt = 1e-3;  // RK4 step; Dormand-Prince output interval (records) and first step
  double rtol = 1e-9, atol = 1e-12;  // Dormand-Prince error control
  double dt_min = 1e-12;             // Dormand-Prince gives up below this step

  stabilization_kind stabilization = stabilization_kind::none;
  double baumgarte_alpha = 5.0;  // 1/s
  double baumgarte_beta = 5.0;   // 1/s
  double baumgarte_gamma = 5.0;  // 1/s, nonholonomic rows
  double projection_tolerance = 1e-12;
  int projection_iterations = 8;

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

  // Throws io::option_error naming the field and its allowed range: times finite with
  // t_end > t_start, dt, rtol (< 1), dt_min and projection_tolerance finite and > 0, atol and the
  // Baumgarte rates finite and >= 0, record_every and projection_iterations >= 1.
  // simulate() and simulate_from() call it.
  void validate() const;
};

// Why a run ended before t_end.
enum class simulation_stop {
  none,           // completed (or still running)
  refused,        // the solver refused the system (inconsistent, singular)
  not_converged,  // a solve did not converge and allow_unconverged was off
  non_finite,     // NaN or infinite acceleration or state: the motion diverged
  step_size,      // Dormand-Prince step size fell below dt_min
  caller,         // the step callback returned false
};
const char* stop_name(simulation_stop s);  // "none", "refused", "not_converged", ...

// One state and what the solver made of it. Constraint forces and diagnostics come from the
// solve at this state (the first RK4 stage).
struct step_record {
  double t = 0.0;
  Eigen::VectorXd q, qd, qdd;
  Eigen::VectorXd constraint_force;  // f_c = M (a - a_f)
  double position_violation = 0.0;   // max |Phi_i| over holonomic rows
  double velocity_violation = 0.0;   // max |velocity-level violation|
  double energy = 0.0;               // NaN when the model defines none
  // --check: max |a - a_reference| at the same state (NaN without a reference solver).
  double reference_difference = 0.0;
  solve_status status = solve_status::ok;  // of the solve at this state
  // All solves since the previous record, this one's included (the integrator stages that led
  // to this state): the largest status code among them, and how many did not converge.
  solve_status worst_status = solve_status::ok;
  int unconverged_solves = 0;
  int rank = 0;
  long long evaluations = 0;  // solver work in this step (all stages), iterative solvers
  int runs = 0;
};

struct simulation_result {
  bool completed = false;  // reached t_end
  simulation_stop stop = simulation_stop::none;
  std::string message;               // why it stopped early, naming constraints where relevant
  long long steps = 0;               // accepted steps
  long long rejected_steps = 0;      // Dormand-Prince only
  std::vector<step_record> records;  // kept records (see record_every); empty with a callback
  double max_position_violation = 0.0;
  double max_velocity_violation = 0.0;
  double max_reference_difference = 0.0;            // NaN without a reference solver
  double initial_energy = 0.0, final_energy = 0.0;  // NaN when undefined
  long long solver_evaluations = 0;
  // Every solve of the run (all stages, rejected steps included; not the reference solver's).
  long long solves = 0;
  long long unconverged_solves = 0;    // not_converged
  long long least_squares_solves = 0;  // least-squares compromises (inconsistent constraints)
  double first_unconverged_t = std::numeric_limits<double>::quiet_NaN();
  std::string first_unconverged_message;  // the solver's message at that solve
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
simulation_result simulate(const model& m, acceleration_solver& solver,
                           const simulation_options& options, const step_callback& on_step = {},
                           acceleration_solver* reference = nullptr);

// The same from an explicit initial state (q0, qd0) instead of the model's.
simulation_result simulate_from(const model& m, const Eigen::VectorXd& q0,
                                const Eigen::VectorXd& qd0, acceleration_solver& solver,
                                const simulation_options& options,
                                const step_callback& on_step = {},
                                acceleration_solver* reference = nullptr);

// Column names of a simulation CSV for this model: t, q..., <q>_dot..., <q>_ddot...,
// position_violation, velocity_violation, energy (when the model defines it), fc_<q>...,
// reference_difference when `with_reference`, then solve_status (worst_status as its code:
// 0 ok, 1 least_squares, 2 inconsistent, 3 singular, 4 not_converged) and unconverged_solves.
std::vector<std::string> record_columns(const model& m, bool with_reference);
std::vector<double> record_row(const model& m, const step_record& r, bool with_reference);

}  // namespace kinevo::mechanics
