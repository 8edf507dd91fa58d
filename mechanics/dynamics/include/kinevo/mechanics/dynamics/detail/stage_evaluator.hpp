// One stage of an integrator in a simulation run: integrated state -> (q, q') -> acceleration
// -> derivative.
#pragma once

#include <fmt/format.h>

#include <Eigen/Core>
#include <string>

#include "kinevo/mechanics/dynamics/detail/run_dynamics.hpp"

namespace kinevo::mechanics {

// One stage: the integrated state y -> the full state (q, q') -> the acceleration -> dy/dt.
// Every integrator path goes through it, so none can skip the formulation's recovery or the
// solve's checks.
class stage_evaluator {
 public:
  stage_evaluator(formulation& form, run_dynamics& dyn, run_state& st)
      : form_(form), dyn_(dyn), state_(st) {}

  // The acceleration at y (nullptr when the run must stop there); dy/dt into `dy`. The full
  // state is q(), qd() until the next call.
  const acceleration_result* evaluate(const Eigen::VectorXd& y, double t, Eigen::VectorXd& dy) {
    if (!y.allFinite()) {
      stop_run(state_, simulation_stop::non_finite,
               fmt::format("stopped at t = {:.6g}: non-finite state (q or q' is NaN or "
                           "infinite): the motion diverged",
                           t));
      return nullptr;
    }
    if (!form_.expand(y, t, q_, qd_)) {
      if (recoverable_) {
        expand_failed_ = true;
        return nullptr;
      }
      stop_run(state_, simulation_stop::not_converged,
               fmt::format("stopped at t = {:.6g}: {}", t, form_.message()));
      return nullptr;
    }
    const acceleration_result* a = dyn_.solve(q_, qd_, t);
    if (a == nullptr) return nullptr;
    form_.derivative_into(q_, qd_, a->acceleration, dy);
    return a;
  }
  // The formulation's corrections after an accepted step; false when the run must stop.
  bool after_step(double t, double h, double h_max, Eigen::VectorXd& y, bool& changed) {
    const step_outcome outcome = form_.after_step(t, h, h_max, y);
    changed = outcome == step_outcome::changed;
    if (outcome == step_outcome::failed) {
      stop_run(state_, simulation_stop::not_converged,
               fmt::format("stopped at t = {:.6g}: {}", t, form_.message()));
      return false;
    }
    return true;
  }
  const Eigen::VectorXd& q() const { return q_; }
  const Eigen::VectorXd& qd() const { return qd_; }
  // Inside an adaptive step a failed recovery of (q, q') from y (the formulation's Newton
  // iteration) only rejects the step: a smaller one may converge. evaluate() then returns
  // nullptr without stopping the run, and expand_failed() says so once.
  void set_recoverable(bool on) { recoverable_ = on; }
  bool expand_failed() {
    const bool failed = expand_failed_;
    expand_failed_ = false;
    return failed;
  }
  const std::string& message() const { return form_.message(); }

 private:
  bool recoverable_ = false;
  bool expand_failed_ = false;
  formulation& form_;
  run_dynamics& dyn_;
  run_state& state_;
  Eigen::VectorXd q_, qd_;
};

}  // namespace kinevo::mechanics
