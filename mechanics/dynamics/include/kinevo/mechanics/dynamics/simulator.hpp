// A simulation advanced by the caller, record by record or dt by dt, with its state readable
// and settable between steps (as MuJoCo's mj_step loop): the same run simulate() makes, which
// is this class driven to its end.
#pragma once

#include <Eigen/Core>
#include <memory>

#include "kinevo/core/run_context.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::mechanics {

class simulator {
 public:
  // A run from the model's initial state (or from (q0, qd0)) over options.t_start .. t_end,
  // exactly as simulate() / simulate_from() with the same arguments, whose result is this
  // simulator's after advancing to the end. The model, the solvers and the callback's captures
  // must outlive the simulator. Throws io::option_error for invalid options (options.validate())
  // or a formulation the model cannot take, io::option_error naming q or qd for a state of the
  // wrong size. The first record (at t_start) is made here.
  // `context`: the interrupt flag, rank agreement and progress sink (simulate()); copied.
  simulator(const model& m, acceleration_solver& solver, const simulation_options& options,
            step_callback on_step = {}, acceleration_solver* reference = nullptr,
            const core::run_context& context = {});
  simulator(const model& m, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
            acceleration_solver& solver, const simulation_options& options,
            step_callback on_step = {}, acceleration_solver* reference = nullptr,
            const core::run_context& context = {});
  // The same owning its model and a solver made by name, as `kinevo simulate --solver NAME`
  // does (make_solver: io::input_error for an unknown name).
  simulator(model m, const std::string& solver, const solver_options& solver_settings,
            const simulation_options& options);
  ~simulator();
  simulator(simulator&&) noexcept;
  simulator& operator=(simulator&&) noexcept;
  simulator(const simulator&) = delete;
  simulator& operator=(const simulator&) = delete;

  // The next record (an RK4 run with intermittent constraints also records their switches
  // between grid times). false when the run is over: it completed at t_end or stopped early
  // (result().stop and .message say why); the call may have made the run's last record.
  bool advance();
  // On to the next grid time t_start + k dt (t_end for the last): true when the run goes on
  // after it, false when it is over (completed, or stopped: result() says which).
  bool step();
  // n such steps; false as soon as the run is over.
  bool step(long long n);
  // Neither completed nor stopped.
  bool running() const;

  // The latest record's time and state (t_start and the initial state before any record).
  double t() const;
  const Eigen::VectorXd& q() const;
  const Eigen::VectorXd& qd() const;
  // The latest record: acceleration, constraint forces, violations, energy, solve status.
  // Only valid when has_record().
  const step_record& last() const;
  bool has_record() const;
  // Records made so far (the streamed and the kept ones; the first is made on construction).
  long long record_count() const;

  // Starts a new run from (q, qd) at time t (up to the same t_end), as simulate_from() with
  // options.t_start = t: the formulation restarts from that state and the result counts from
  // there. Throws io::option_error ("q", "qd", "t") when a size is wrong, a value is not finite
  // or t is not before t_end; the simulator is unchanged then.
  void set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);

  // How the run went so far (at its end: what simulate() returns), with the formulation's
  // report and the wall time spent in the simulator.
  simulation_result result() const;
  // The same, moving the records out; the simulator is over afterwards.
  simulation_result take_result();

  const simulation_options& options() const;
  const model& the_model() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace kinevo::mechanics
