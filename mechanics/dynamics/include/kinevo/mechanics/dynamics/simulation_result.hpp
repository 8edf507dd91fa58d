// What a simulation produced and how it went: the records, why it stopped, and the figures
// derived from the run (violations, energy drift, solve counts, wall time). The result reports
// itself (Ceres Solver's Solver::Summary is the model): brief_report() for one line,
// full_report() for the text `kinevo simulate` prints, to_json() for --json.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

enum class integrator_kind {
  rk4,             // classical Runge-Kutta, fixed step dt
  dormand_prince,  // Dormand-Prince 5(4), error control (rtol, atol), records at dt by dense output
};
// "rk4", "dopri"; parse also takes "dormand-prince". parse throws io::option_error naming
// `field` and the allowed names.
const char* to_string(integrator_kind k);
integrator_kind parse_integrator(std::string_view name, const std::string& field = "integrator");

enum class stabilization_kind {
  none,
  // b* = b - 2 alpha Phi' - beta^2 Phi (holonomic), b* = b - gamma C (nonholonomic)
  // (generalized-inverse dissertation (GIGSP), eqs. 2.39-2.45).
  baumgarte,
  // After each step, Newton projection of q onto Phi = 0 and of q' onto the velocity
  // constraints with weight M (generalized-inverse dissertation (GIGSP), eqs. 2.46-2.53).
  projection,
};
// "none", "baumgarte", "projection".
const char* to_string(stabilization_kind k);
stabilization_kind parse_stabilization(std::string_view name,
                                       const std::string& field = "stabilization");

// Why a run ended before t_end.
enum class simulation_stop {
  none,           // completed (or still running)
  refused,        // the solver refused the system (inconsistent, singular)
  not_converged,  // a solve did not converge and allow_unconverged was off
  non_finite,     // NaN or infinite acceleration or state
  step_size,      // Dormand-Prince step size fell below dt_min
  caller,         // the step callback returned false
  diverged,       // the motion grew beyond the divergence limits (simulation_options)
  interrupted,    // the interrupt flag was raised (SIGINT, SIGTERM)
  chattering,     // an intermittent constraint switched back and forth without progress
};
const char* stop_name(simulation_stop s);  // "none", "refused", "not_converged", ...
const char* to_string(simulation_stop s);  // the same
simulation_stop parse_simulation_stop(std::string_view name);

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
  // 1 / 0 per intermittent constraint (model::intermittent_constraints()): on or off at this
  // state; empty for a model without them.
  std::vector<char> active;
  // The velocity-level value C (the slip velocity) per intermittent constraint.
  std::vector<double> slip;
  // The run's last record: t_end, or the state where it diverged or was interrupted. A caller
  // thinning the records keeps it.
  bool final = false;
};

// An intermittent constraint switched on or off (docs/intermittent.md) at a located time.
struct constraint_event {
  double t = 0.0;
  std::string constraint;
  bool on = true;  // kind: "on" or "off"
  // Velocity-level value C of the row at the switch (before the projection of a switch on).
  double value = 0.0;
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
  double max_energy_change = 0.0;                   // max |E - E_initial| over the records
  long long solver_evaluations = 0;
  // Every solve of the run (all stages, rejected steps included; not the reference solver's).
  long long solves = 0;
  long long unconverged_solves = 0;    // not_converged
  long long least_squares_solves = 0;  // least-squares compromises (inconsistent constraints)
  double first_unconverged_t = std::numeric_limits<double>::quiet_NaN();
  std::string first_unconverged_message;  // the solver's message at that solve
  // The scales the divergence limits multiply (docs/mechanics.md, "Divergence"), from the
  // first record; NaN before it.
  double position_scale = std::numeric_limits<double>::quiet_NaN();
  double velocity_scale = std::numeric_limits<double>::quiet_NaN();
  double last_t = std::numeric_limits<double>::quiet_NaN();  // of the last record
  double wall_seconds = 0.0;
  std::vector<constraint_event> events;  // in time order

  // What ran (for the reports).
  std::string solver;            // the solver's name
  std::string reference_solver;  // empty without one
  integrator_kind integrator = integrator_kind::rk4;
  stabilization_kind stabilization = stabilization_kind::none;
  formulation_report formulation;  // name, hybrid switches, re-partitions, corrections
  bool has_energy = false;         // the model defines an energy
  // ... and no driver does work on it: a largest energy deviation above
  // conservation_warning is a warning in notes() (the motion went wrong somewhere).
  bool conservative = false;
  static constexpr double conservation_warning = 1e-3;
  bool allow_unconverged = false;

  // "rk4", "dopri", or "ida" for the qtz-reduced formulation (integrated by SUNDIALS IDA).
  std::string integrator_name() const;
  // (E_final - E_initial) / |E_initial|; NaN when the energy is undefined or E_initial = 0.
  double energy_drift() const;
  // max |E - E_initial| / |E_initial| over the records; NaN as for energy_drift().
  double max_energy_deviation() const;
  bool diverged() const { return stop == simulation_stop::diverged; }
  bool interrupted() const { return stop == simulation_stop::interrupted; }
  // "completed", "diverged", "interrupted", or "failed" (any other early stop).
  std::string status() const;
  // The run in the one outcome model, derived from stop and message (simulate() sets those):
  // completed is ok, interrupted interrupted, a solve that did not converge not_converged,
  // every other early stop failed; the reason is status(), with steps and wall time.
  core::summary summary() const {
    core::termination end = core::termination::failed;
    if (completed) {
      end = core::termination::ok;
    } else if (interrupted()) {
      end = core::termination::interrupted;
    } else if (stop == simulation_stop::not_converged) {
      end = core::termination::not_converged;
    }
    core::summary s = core::summary::ended(end, status(), message);
    s.iterations = steps;
    s.seconds = wall_seconds;
    return s;
  }

  // One line: status, steps, last time, and the reason of an early stop.
  std::string brief_report() const;
  // Several lines: the brief one, violations, energy, the reference difference, solver work,
  // unconverged and least-squares solves.
  std::string full_report() const;
  // What the user should hear besides the message, one line each: how to go on after a stop
  // (--allow-unconverged; a smaller --dt or the divergence limits after a divergence) and the
  // warnings of a finished run (unconverged or least-squares solves).
  std::vector<std::string> notes() const;
  // The JSON of --json (keys pinned in tests/mechanics/test_report_contracts.cpp); numbers
  // that are not finite as null.
  nlohmann::json to_json() const;
};

}  // namespace kinevo::mechanics
