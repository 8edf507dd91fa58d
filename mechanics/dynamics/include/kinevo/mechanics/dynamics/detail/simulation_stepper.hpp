// The integrators of a simulation run turned inside out: each keeps its loop's locals as
// members and advance() does one iteration of the loop, so that simulate() ("construct; while
// (advance()) {}") and the step-by-step simulator share one loop.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "kinevo/mechanics/dynamics/detail/simulation_run_state.hpp"

namespace kinevo::mechanics {

class formulation;

class simulation_stepper {
 public:
  virtual ~simulation_stepper() = default;
  // Makes the next record (the first call: the one at t_start). false when the run is over:
  // completed (result.completed) or stopped (result.stop says why); a record may have been
  // made by that call too (the last one).
  virtual bool advance() = 0;
  // Whether the latest record is at a grid time t_start + k dt (or t_end); an RK4 run with
  // intermittent constraints also records the switches between grid times.
  virtual bool on_grid() const { return true; }
  // How often the qtz-reduced formulation rebuilt its combined constraints (IDA), else 0.
  virtual long long rebases() const { return 0; }
};

// What every integrator of a run works with; the referenced objects outlive the stepper.
struct stepper_context {
  const model& m;
  acceleration_solver& solver;
  formulation& form;
  const simulation_options& options;
  acceleration_solver* reference;
  const Eigen::VectorXd& q0;
  const Eigen::VectorXd& qd0;
  run_state& state;
};

// RK4, Dormand-Prince, or the qtz-reduced DAE by IDA, as the options say.
std::unique_ptr<simulation_stepper> make_simulation_stepper(const stepper_context& c);

std::unique_ptr<simulation_stepper> make_rk4_stepper(const stepper_context& c);
std::unique_ptr<simulation_stepper> make_dopri_stepper(const stepper_context& c);
std::unique_ptr<simulation_stepper> make_dae_stepper(const stepper_context& c);

}  // namespace kinevo::mechanics
