// The stages of one acceleration evaluation in a simulation run, with the checks every solve
// gets.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <Eigen/Core>
#include <utility>

#include "kinevo/mechanics/dynamics/detail/simulation_run_state.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

// The stages of one acceleration evaluation: evaluate (M, f, A, b), stabilize b, solve; then
// the accounting and the checks every solve gets (finite state, refusal, finite acceleration,
// convergence), so that no integrator path can skip them.
class run_dynamics {
 public:
  run_dynamics(const model& m, acceleration_solver& solver, formulation& form,
               const simulation_options& o, run_state& st)
      : model_(m), solver_(solver), form_(form), options_(o), state_(st) {}

  // The acceleration at (q, q', t), or nullptr when the run must stop there (the result says
  // why). The pointee is overwritten by the next call.
  const acceleration_result* solve(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) {
    if (!q.allFinite() || !qd.allFinite()) {
      // Checked before solving: a solver given NaN may return anything, or take long to fail.
      stop_run(state_, simulation_stop::non_finite,
               fmt::format("stopped at t = {:.6g}: non-finite state (q or q' is NaN or "
                           "infinite): the motion diverged",
                           t));
      return nullptr;
    }
    current_ = &form_.solver(solver_);
    // A solver that reads the compact system gets it (no dense M and A: docs/reliability.md);
    // intermittent rows reduce the dense one.
    const bool compact = state_.intermittent == nullptr && current_->reads_compact();
    model_.evaluate(q, qd, t, system_, compact);
    if (options_.stabilization == stabilization_kind::baumgarte && system_.constraints() > 0) {
      // Generalized-inverse dissertation (GIGSP), eqs. 2.39-2.45: holonomic rows
      // b* = b - 2 alpha Phi' - beta^2 Phi; nonholonomic rows b* = b - gamma C.
      const Eigen::VectorXd phi = model_.position_violation(q, t);
      const Eigen::VectorXd c = model_.velocity_violation(q, qd, t);
      const int h = model_.holonomic_constraints();
      for (int i = 0; i < system_.constraints(); ++i) {
        if (i < h) {
          system_.rhs[i] -= 2.0 * options_.baumgarte_alpha * c[i] +
                            options_.baumgarte_beta * options_.baumgarte_beta * phi[i];
        } else {
          system_.rhs[i] -= options_.baumgarte_gamma * c[i];
        }
      }
    }
    if (state_.intermittent != nullptr) {
      // The rows switched off leave the system the solver sees; their friction enters f.
      state_.intermittent->reduce(q, qd, t, system_, reduced_);
      solved_ = &reduced_;
    }
    current_->solve_into(*solved_, result_);
    evaluations_ += result_.evaluations;
    runs_ += result_.runs;
    return account(t) ? &result_ : nullptr;
  }
  // The system of the last solve (the reduced one for intermittent constraints).
  const constrained_system& system() const { return *solved_; }
  long long take_evaluations() { return std::exchange(evaluations_, 0); }
  int take_runs() { return std::exchange(runs_, 0); }

 private:
  bool account(double t) {
    const acceleration_result& a = result_;
    simulation_result& res = state_.result;
    ++res.solves;
    res.solver_evaluations += a.evaluations;  // here, so a stopped run counts its last solve
    state_.pending_worst = worse(state_.pending_worst, a.status);
    if (a.status == solve_status::least_squares) ++res.least_squares_solves;
    if (a.status == solve_status::not_converged) {
      ++res.unconverged_solves;
      ++state_.pending_unconverged;
      if (res.unconverged_solves == 1) {
        res.first_unconverged_t = t;
        res.first_unconverged_message = a.message;
      }
    }
    if (a.status == solve_status::non_finite || !a.acceleration.allFinite()) {
      return stop_non_finite(t, a);
    }
    if (refused(a) && (options_.stop_on_refusal || a.acceleration.size() == 0)) {
      stop_run(state_, simulation_stop::refused,
               fmt::format("stopped at t = {:.6g}: {}", t,
                           a.message.empty() ? "the solver refused the system" : a.message));
      return false;
    }
    if (a.status == solve_status::not_converged && !options_.allow_unconverged) {
      stop_run(state_, simulation_stop::not_converged,
               fmt::format("stopped at t = {:.6g}: the {} solver did not converge{}", t,
                           current_->name(), a.message.empty() ? "" : " (" + a.message + ")"));
      return false;
    }
    return true;
  }

  // A NaN or infinite system (the solver refused it) or acceleration: the run stops, naming
  // the model's entries that are not finite (a constraint outside its domain, a force).
  bool stop_non_finite(double t, const acceleration_result& a) {
    const auto inputs = non_finite_entries(model_, *solved_);
    const std::string what = a.status == solve_status::non_finite
                                 ? "the model's system is not finite"
                                 : fmt::format(
                                       "non-finite acceleration (NaN or infinite) from "
                                       "the {} solver",
                                       current_->name());
    stop_run(
        state_, simulation_stop::non_finite,
        fmt::format("stopped at t = {:.6g}: {}{}", t, what,
                    inputs.empty() ? (a.message.empty() ? std::string() : " (" + a.message + ")")
                                   : fmt::format("; the model gives NaN or infinite {}",
                                                 fmt::join(inputs, ", "))));
    return false;
  }

  const model& model_;
  acceleration_solver& solver_;
  formulation& form_;
  acceleration_solver* current_ = &solver_;  // the solver of the last solve
  const simulation_options& options_;
  run_state& state_;
  constrained_system system_;
  constrained_system reduced_;
  const constrained_system* solved_ = &system_;
  acceleration_result result_;
  long long evaluations_ = 0;
  int runs_ = 0;
};

}  // namespace kinevo::mechanics
