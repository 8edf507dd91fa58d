#include "kinevo/mechanics/dynamics/simulation.hpp"

#include <fmt/format.h>

#include <Eigen/QR>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/intermittent_constraints.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

bool refused(const acceleration_result& r) {
  return r.acceleration.size() == 0 || r.status == solve_status::inconsistent ||
         r.status == solve_status::singular || r.status == solve_status::non_finite;
}

solve_status worse(solve_status a, solve_status b) {
  return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

struct run_state {
  simulation_result result;
  const step_callback* callback = nullptr;
  bool halt = false;  // the record just made is the last: result.stop says why
  bool first_energy = true;
  double max_abs_q0 = 0.0;  // of the first record, for the divergence scales
  // Solves since the previous record.
  solve_status pending_worst = solve_status::ok;
  int pending_unconverged = 0;
  record_thinner thinner{1};
  intermittent_set* intermittent = nullptr;  // a model with intermittent constraints
  // The record handed to a step callback, reused from step to step (its vectors keep their
  // storage); records kept in the result are made afresh.
  step_record streamed;
};

void stop_run(run_state& st, simulation_stop why, std::string message) {
  st.result.stop = why;
  st.result.message = std::move(message);
}

// The run's scales for the divergence limits, from its first record (simulation_options).
void set_scales(const simulation_options& o, const step_record& r, run_state& st) {
  const double span = o.t_end - o.t_start;
  const double q0 = max_abs(r.q), v0 = max_abs(r.qd), a0 = max_abs(r.qdd);
  st.max_abs_q0 = q0;
  st.result.position_scale = 1.0 + q0 + span * v0 + 0.5 * span * span * a0;
  st.result.velocity_scale = 1.0 + v0 + span * a0;
}

// Why the record diverged (docs/mechanics.md, "Divergence"), or empty.
std::string divergence(const simulation_options& o, const step_record& r, const run_state& st) {
  const simulation_result& res = st.result;
  const double q = max_abs(r.q), v = max_abs(r.qd);
  if (q > o.divergence_growth * res.position_scale) {
    return fmt::format("max |q| = {:.3g}, beyond {:g} times the run's position scale {:.3g}", q,
                       o.divergence_growth, res.position_scale);
  }
  if (v > o.divergence_growth * res.velocity_scale) {
    return fmt::format("max |q'| = {:.3g}, beyond {:g} times the run's velocity scale {:.3g}", v,
                       o.divergence_growth, res.velocity_scale);
  }
  const double s_p = 1.0 + st.max_abs_q0;
  if (o.diagnostics && r.position_violation > o.divergence_violation * s_p * s_p) {
    return fmt::format("max |Phi| = {:.3g}, beyond {:g} times the squared scale {:.3g}^2",
                       r.position_violation, o.divergence_violation, s_p);
  }
  const double e0 = res.initial_energy;
  if (std::isfinite(e0) && std::isfinite(r.energy) &&
      std::abs(r.energy - e0) > o.divergence_energy * std::max(1.0, std::abs(e0))) {
    return fmt::format("energy {:.3g} against {:.3g} at the start, beyond {:g} times max(1, |E0|)",
                       r.energy, e0, o.divergence_energy);
  }
  return {};
}

// Divergence and interrupt end the run at this record (which is then the last).
void check_halt(const simulation_options& o, step_record& r, run_state& st, bool first) {
  if (o.check_divergence && !first) {
    const std::string why = divergence(o, r, st);
    if (!why.empty()) {
      stop_run(st, simulation_stop::diverged,
               fmt::format("stopped at t = {:.6g}: the motion diverged: {}", r.t, why));
    }
  }
  bool interrupted = o.interrupt != nullptr && o.interrupt->load();
  // Called at every record (also when already halting) so that processes that agree through it
  // (MPI ranks) call it equally often.
  if (o.agree_interrupt) interrupted = o.agree_interrupt(interrupted);
  if (!st.halt && st.result.stop == simulation_stop::none && interrupted) {
    stop_run(st, simulation_stop::interrupted, fmt::format("interrupted at t = {:.6g}", r.t));
  }
  if (st.result.stop != simulation_stop::none) {
    st.halt = true;
    r.final = true;
  }
}

// The stages of one acceleration evaluation: evaluate (M, f, A, b), stabilize b, solve; then
// the accounting and the checks every solve gets (finite state, refusal, finite acceleration,
// convergence), so that no integrator path can skip them.
class dynamics {
 public:
  dynamics(const model& m, acceleration_solver& solver, formulation& form,
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

void make_record(const model& m, dynamics& dyn, acceleration_solver* reference,
                 const simulation_options& o, double t, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& qd, const acceleration_result& a, run_state& st,
                 bool force_keep) {
  const bool streaming = st.callback != nullptr && *st.callback;
  step_record fresh;
  step_record& r = streaming ? st.streamed : fresh;
  r.slip.clear();
  r.t = t;
  r.q = q;
  r.qd = qd;
  r.qdd = a.acceleration;
  r.constraint_force = a.constraint_force;
  r.status = a.status;
  r.worst_status = std::exchange(st.pending_worst, solve_status::ok);
  r.unconverged_solves = std::exchange(st.pending_unconverged, 0);
  r.rank = a.rank;
  r.evaluations = dyn.take_evaluations();
  r.runs = dyn.take_runs();
  r.energy = nan;
  if (o.diagnostics) {
    const Eigen::VectorXd phi = m.position_violation(q, t);
    const Eigen::VectorXd c = m.velocity_violation(q, qd, t);
    r.position_violation = phi.size() > 0 ? phi.cwiseAbs().maxCoeff() : 0.0;
    r.velocity_violation = st.intermittent != nullptr
                               ? st.intermittent->velocity_violation(q, qd, t)
                           : c.size() > 0 ? c.cwiseAbs().maxCoeff()
                                          : 0.0;
    const auto e = m.energy(q, qd, t);
    r.energy = e ? *e : nan;
    // A finite state whose derived numbers overflow (initial values of 1e308 with gravity,
    // velocities of 1e200 squared in the energy) is not reported: the run stops before this
    // record, naming the quantity.
    const char* overflowed = !std::isfinite(r.position_violation)   ? "constraint violation"
                             : !std::isfinite(r.velocity_violation) ? "velocity violation"
                             : e && !std::isfinite(*e)              ? "energy"
                                                                    : nullptr;
    if (overflowed != nullptr) {
      stop_run(st, simulation_stop::non_finite,
               fmt::format("stopped at t = {:.6g}: the {} is not finite (NaN or infinite): the "
                           "model's numbers are beyond the range of doubles",
                           t, overflowed));
      st.halt = true;
      return;
    }
  }
  if (!r.constraint_force.allFinite()) {
    stop_run(st, simulation_stop::non_finite,
             fmt::format("stopped at t = {:.6g}: the constraint forces are not finite (NaN or "
                         "infinite)",
                         t));
    st.halt = true;
    return;
  }
  if (st.intermittent != nullptr) {
    r.active = st.intermittent->active();
    for (int k = 0; k < st.intermittent->size(); ++k) {
      r.slip.push_back(st.intermittent->value(k, q, qd, t));
    }
  }
  r.reference_difference = nan;
  if (reference != nullptr) {
    // (A compact system's dense form only here: the comparison is a diagnostic.)
    const constrained_system& solved = dyn.system();
    const acceleration_result ref =
        solved.compact ? reference->solve(dense_system(solved)) : reference->solve(solved);
    r.reference_difference =
        refused(ref) || r.qdd.size() == 0 ? nan : (ref.acceleration - r.qdd).cwiseAbs().maxCoeff();
    st.result.max_reference_difference =
        std::isnan(st.result.max_reference_difference)
            ? r.reference_difference
            : std::max(st.result.max_reference_difference, r.reference_difference);
  }
  auto& res = st.result;
  res.max_position_violation = std::max(res.max_position_violation, r.position_violation);
  res.max_velocity_violation = std::max(res.max_velocity_violation, r.velocity_violation);
  const bool first = st.first_energy;
  if (first) {
    res.initial_energy = r.energy;
    st.first_energy = false;
    set_scales(o, r, st);
  }
  res.final_energy = r.energy;
  if (std::isfinite(r.energy) && std::isfinite(res.initial_energy)) {
    res.max_energy_change =
        std::max(res.max_energy_change, std::abs(r.energy - res.initial_energy));
  }
  res.last_t = t;
  r.final = force_keep;
  check_halt(o, r, st, first);
  if (streaming) {
    if (!(*st.callback)(r) && !st.halt) {
      stop_run(st, simulation_stop::caller, fmt::format("stopped by the caller at t = {:.6g}", t));
      st.halt = true;
    }
  } else if (st.thinner.keep(r, r.final)) {
    res.records.push_back(std::move(r));
  }
}

// One stage: the integrated state y -> the full state (q, q') -> the acceleration -> dy/dt.
// Every integrator path goes through it, so none can skip the formulation's recovery or the
// solve's checks.
class stage_evaluator {
 public:
  stage_evaluator(formulation& form, dynamics& dyn, run_state& st)
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
  dynamics& dyn_;
  run_state& state_;
  Eigen::VectorXd q_, qd_;
};

// Locates and applies the switches of intermittent constraints (docs/intermittent.md). A row's
// condition (its `on` condition while off, `off` while on) is armed once it is > 0 at an
// accepted state; an armed condition that is <= 0 at the end of a step is an event inside it,
// located by bisection of the step (RK4: re-integrating from its start with shorter steps;
// Dormand-Prince: on its continuous extension) to simulation_options::event_tolerance.
class event_monitor {
 public:
  // path(s, y): the state a length s into the step (false when the run must stop).
  using path = std::function<bool(double, Eigen::VectorXd&)>;

  event_monitor(const simulation_options& o, formulation& form, stage_evaluator& stage,
                dynamics& dyn, run_state& st)
      : options_(o), form_(form), stage_(stage), dyn_(dyn), state_(st) {}

  bool enabled() const { return state_.intermittent != nullptr; }

  // The conditions at y; false when the run must stop.
  bool values(const Eigen::VectorXd& y, double t, Eigen::VectorXd& g) {
    const acceleration_result* a = stage_.evaluate(y, t, scratch_);
    if (a == nullptr) return false;
    t_ = t;
    g = state_.intermittent->conditions(stage_.q(), stage_.qd(), t, dyn_.system(), *a);
    return true;
  }
  bool start(const Eigen::VectorXd& y, double t) {
    const auto k = static_cast<std::size_t>(state_.intermittent->size());
    armed_.assign(k, 0);
    last_switch_.assign(k, -std::numeric_limits<double>::infinity());
    const acceleration_result* a = stage_.evaluate(y, t, scratch_);
    if (a == nullptr) return false;
    state_.intermittent->start_sides(stage_.q(), stage_.qd(), t, a->acceleration);
    Eigen::VectorXd g;
    if (!values(y, t, g)) return false;
    accept(g);
    return true;
  }
  // Whether an armed condition is <= 0 in g.
  bool crossed(const Eigen::VectorXd& g) const {
    for (Eigen::Index k = 0; k < g.size(); ++k) {
      if (armed_[static_cast<std::size_t>(k)] != 0 && g[k] <= 0.0) return true;
    }
    return false;
  }
  // A state reached without an event: the last one values() was called at.
  void accept(const Eigen::VectorXd& g) {
    state_.intermittent->note_slip(stage_.q(), stage_.qd(), t_);
    for (Eigen::Index k = 0; k < g.size(); ++k) {
      if (g[k] > 0.0) armed_[static_cast<std::size_t>(k)] = 1;
    }
  }
  // The earliest crossing in (0, span] (crossed at span, with state y_end and conditions
  // g_end): s_event and the state and conditions there, to event_tolerance in time.
  bool locate(const path& p, double t0, double span, const Eigen::VectorXd& y_end,
              const Eigen::VectorXd& g_end, double& s_event, Eigen::VectorXd& y_event,
              Eigen::VectorXd& g_event) {
    double lo = 0.0, hi = span;
    y_event = y_end;
    g_event = g_end;
    Eigen::VectorXd y_mid, g_mid;
    while (hi - lo > options_.event_tolerance) {
      const double mid = 0.5 * (lo + hi);
      if (!p(mid, y_mid) || !values(y_mid, t0 + mid, g_mid)) return false;
      if (crossed(g_mid)) {
        hi = mid;
        y_event = y_mid;
        g_event = g_mid;
      } else {
        lo = mid;
      }
    }
    s_event = hi;
    return true;
  }
  // Switches the rows whose armed conditions are <= 0 in g at (y, t), projects q' onto the
  // rows that are on after a switch on, and re-arms. false when the run must stop (chattering).
  bool apply(double t, Eigen::VectorXd& y, const Eigen::VectorXd& g) {
    intermittent_set& set = *state_.intermittent;
    Eigen::VectorXd q, qd;
    if (!form_.expand(y, t, q, qd)) {
      stop_run(state_, simulation_stop::not_converged,
               fmt::format("stopped at t = {:.6g}: {}", t, form_.message()));
      return false;
    }
    std::vector<int> switched_on;
    bool any_on = false;
    for (int k = 0; k < set.size(); ++k) {
      const auto ku = static_cast<std::size_t>(k);
      if (armed_[ku] == 0 || !(g[k] <= 0.0)) continue;
      const bool on = !set.active(k);
      if (t - last_switch_[ku] <= 10.0 * options_.event_tolerance) {
        stop_run(state_, simulation_stop::chattering,
                 fmt::format("stopped at t = {:.10g}: constraint '{}' switched {} again {:.3g} s "
                             "after its last switch (chattering: its on and off conditions "
                             "contradict each other there)",
                             t, set.name(k), on ? "on" : "off", t - last_switch_[ku]));
        return false;
      }
      state_.result.events.push_back({t, set.name(k), on, set.value(k, q, qd, t)});
      set.set_active(k, on);
      armed_[ku] = 0;
      last_switch_[ku] = t;
      if (on) switched_on.push_back(k);
      any_on = any_on || on;
    }
    if (any_on) qd = set.project(q, qd, t);
    y = form_.begin(q, qd, t);
    Eigen::VectorXd g_after;
    if (!values(y, t, g_after)) return false;
    bool reversed = false;
    for (const int k : switched_on) {
      if (!(g_after[k] <= 0.0)) continue;
      if (set.has_friction(k)) {
        // The force the row needs exceeds the friction limit as soon as the slip stops: the
        // slip reverses (a block thrown up a slope steeper than its friction angle). The row
        // goes off again at once, slipping to the side its force cannot hold.
        state_.result.events.push_back({t, set.name(k), false, set.value(k, q, qd, t)});
        set.set_active(k, false);
        reversed = true;
        continue;
      }
      // A row without friction whose `off` condition fails at once would switch on and off at
      // the same instant forever.
      stop_run(state_, simulation_stop::chattering,
               fmt::format("stopped at t = {:.10g}: constraint '{}' switched on, but its off "
                           "condition is {:.3g} <= 0 at once: it would chatter",
                           t, set.name(k), g_after[k]));
      return false;
    }
    if (reversed && !values(y, t, g_after)) return false;
    accept(g_after);
    return true;
  }

 private:
  const simulation_options& options_;
  formulation& form_;
  stage_evaluator& stage_;
  dynamics& dyn_;
  run_state& state_;
  std::vector<char> armed_;
  std::vector<double> last_switch_;
  Eigen::VectorXd scratch_;
  double t_ = 0.0;  // of the last values()
};

void run_rk4(const model& m, acceleration_solver& solver, formulation& form,
             const simulation_options& o, acceleration_solver* reference, const Eigen::VectorXd& q0,
             const Eigen::VectorXd& qd0, run_state& st) {
  dynamics dyn(m, solver, form, o, st);
  stage_evaluator stage(form, dyn, st);
  event_monitor events(o, form, stage, dyn, st);
  const double span = o.t_end - o.t_start;
  const long long steps = grid_intervals(span, o.dt);
  auto grid = [&](long long k) {
    return k == steps ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
  };
  Eigen::VectorXd y = form.begin(q0, qd0, o.t_start);
  if (events.enabled() && !events.start(y, o.t_start)) return;
  // The stages' vectors live across steps: sized once, no allocation per step.
  Eigen::VectorXd k1, k2, k3, k4, y_stage, y_new, g;
  double t = o.t_start;
  // The last grid point reached; t is past it (and before the next) after an event.
  long long k = 0;
  for (;;) {
    const bool last = k == steps && t == o.t_end;
    const acceleration_result* a1 = stage.evaluate(y, t, k1);
    if (a1 == nullptr) return;
    make_record(m, dyn, reference, o, t, stage.q(), stage.qd(), *a1, st, last);
    if (st.halt) return;
    if (last) break;
    const double t_next = grid(k + 1);
    const double h = t_next - t;
    // Classical Runge-Kutta on the integrated state, a length s from (t, y).
    auto rk4_step = [&](double s, Eigen::VectorXd& out) {
      y_stage = y + 0.5 * s * k1;
      if (stage.evaluate(y_stage, t + 0.5 * s, k2) == nullptr) return false;
      y_stage = y + 0.5 * s * k2;
      if (stage.evaluate(y_stage, t + 0.5 * s, k3) == nullptr) return false;
      y_stage = y + s * k3;
      if (stage.evaluate(y_stage, t + s, k4) == nullptr) return false;
      out = y + s / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
      return true;
    };
    if (!rk4_step(h, y_new)) return;
    bool changed = false;
    if (!stage.after_step(t_next, h, o.dt, y_new, changed)) return;
    ++st.result.steps;
    if (events.enabled()) {
      if (!events.values(y_new, t_next, g)) return;
      if (events.crossed(g)) {
        double s = h;
        Eigen::VectorXd y_event, g_event;
        if (!events.locate(rk4_step, t, h, y_new, g, s, y_event, g_event)) return;
        const bool at_grid = s >= h;
        t = at_grid ? t_next : t + s;
        if (at_grid) ++k;
        y = y_event;
        if (!events.apply(t, y, g_event)) return;
        continue;
      }
      events.accept(g);
    }
    y = y_new;
    t = t_next;
    ++k;
  }
  st.result.completed = true;
}

// Dormand-Prince 5(4) (the RK5(4)7M pair, first same as last) with step-size control, and its
// continuous extension of order 4 for the records at t_start + k dt (the dense-output
// coefficients of Hairer, Norsett and Wanner's DOPRI5), so steps are not tied to dt.
void run_dopri(const model& m, acceleration_solver& solver, formulation& form,
               const simulation_options& o, acceleration_solver* reference,
               const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, run_state& st) {
  static constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
  static constexpr double a21 = 1.0 / 5;
  static constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
  static constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
  static constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                          a54 = -212.0 / 729;
  static constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                          a64 = 49.0 / 176, a65 = -5103.0 / 18656;
  static constexpr double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784,
                          b6 = 11.0 / 84;
  static constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                          e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
  static constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                          d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                          d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;
  dynamics dyn(m, solver, form, o, st);
  stage_evaluator stage(form, dyn, st);
  event_monitor events(o, form, stage, dyn, st);
  Eigen::VectorXd y = form.begin(q0, qd0, o.t_start);
  if (events.enabled() && !events.start(y, o.t_start)) return;
  double t = o.t_start;
  Eigen::VectorXd k1, k2, k3, k4, k5, k6, k7, unused;
  const acceleration_result* a0 = stage.evaluate(y, t, k1);
  if (a0 == nullptr) return;
  make_record(m, dyn, reference, o, t, stage.q(), stage.qd(), *a0, st, false);
  if (st.halt) return;
  double h = o.dt;
  double h_largest = 0.0;  // the largest accepted step so far (the formulations' h_max)
  long long out_index = 1;
  const auto outputs = grid_intervals(o.t_end - o.t_start, o.dt);
  auto output_time = [&](long long k) {
    return k == outputs ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
  };
  auto f = [&](const Eigen::VectorXd& yy, double tt, Eigen::VectorXd& k) {
    return stage.evaluate(yy, tt, k) != nullptr;
  };
  while (out_index <= outputs) {
    const double step = std::min(h, o.t_end - t);
    stage.set_recoverable(true);
    const bool stages_ok =
        f(y + step * a21 * k1, t + c2 * step, k2) &&
        f(y + step * (a31 * k1 + a32 * k2), t + c3 * step, k3) &&
        f(y + step * (a41 * k1 + a42 * k2 + a43 * k3), t + c4 * step, k4) &&
        f(y + step * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4), t + c5 * step, k5) &&
        f(y + step * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5), t + step, k6);
    const Eigen::VectorXd y_new = y + step * (b1 * k1 + b3 * k3 + b4 * k4 + b5 * k5 + b6 * k6);
    const bool last_ok = stages_ok && f(y_new, t + step, k7);
    stage.set_recoverable(false);
    if (!last_ok) {
      if (!stage.expand_failed()) return;  // the run was stopped (solver, non-finite state)
      // The coordinates could not be recovered inside the step: reject it, try a quarter.
      ++st.result.rejected_steps;
      h = step / 4;
      if (h < o.dt_min) {
        stop_run(st, simulation_stop::not_converged,
                 fmt::format("stopped at t = {:.6g}: {} (also at steps down to {:g})", t,
                             stage.message(), o.dt_min));
        return;
      }
      continue;
    }
    const Eigen::VectorXd err = step * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
    const Eigen::VectorXd scale =
        (o.atol + o.rtol * y.cwiseAbs().cwiseMax(y_new.cwiseAbs()).array()).matrix();
    // A formulation with no independent coordinates (a driven mechanism) has nothing to control.
    const double e =
        y.size() == 0
            ? 0.0
            : std::sqrt((err.cwiseQuotient(scale)).squaredNorm() / static_cast<double>(y.size()));
    if (!(e <= 1.0) || !std::isfinite(e)) {
      ++st.result.rejected_steps;
      h = step * std::max(0.2, 0.9 * std::pow(std::isfinite(e) ? e : 1e10, -0.2));
      if (h < o.dt_min) {
        stop_run(st, simulation_stop::step_size,
                 fmt::format("stopped at t = {:.6g}: step size fell below {:g}", t, o.dt_min));
        return;
      }
      continue;
    }
    // Records at the output times inside (t, t + step], from the continuous extension.
    const double t_old = t;
    double t_new =
        o.t_end - (t + step) <= 1e-12 * std::max(1.0, std::abs(o.t_end)) ? o.t_end : t + step;
    const Eigen::VectorXd r2 = y_new - y, r3 = step * k1 - r2, r4 = r2 - step * k7 - r3;
    const Eigen::VectorXd r5 = step * (d1 * k1 + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * k7);
    auto dense = [&](double th) {
      return Eigen::VectorXd(y + th * (r2 + (1.0 - th) * (r3 + th * (r4 + (1.0 - th) * r5))));
    };
    // An intermittent constraint switching inside the step: the step ends at the event,
    // located on the continuous extension.
    bool event = false;
    Eigen::VectorXd y_event, g_event;
    if (events.enabled()) {
      Eigen::VectorXd g;
      if (!events.values(y_new, t_new, g)) return;
      if (events.crossed(g)) {
        double s = step;
        auto on_dense = [&](double length, Eigen::VectorXd& out) {
          out = dense(length / step);
          return true;
        };
        if (!events.locate(on_dense, t_old, step, y_new, g, s, y_event, g_event)) return;
        event = true;
        if (s < step) t_new = t_old + s;
      } else {
        events.accept(g);
      }
    }
    while (out_index <= outputs &&
           output_time(out_index) <= t_new + 1e-12 * std::max(1.0, std::abs(t_new))) {
      const double t_out = output_time(out_index);
      const double th = (t_out - t_old) / step;
      const Eigen::VectorXd y_out = (out_index == outputs && !event) || th >= 1.0
                                        ? y_new
                                        : (event && t_out >= t_new ? y_event : dense(th));
      const acceleration_result* a = stage.evaluate(y_out, t_out, unused);
      if (a == nullptr) return;
      make_record(m, dyn, reference, o, t_out, stage.q(), stage.qd(), *a, st, out_index == outputs);
      if (st.halt) return;
      ++out_index;
    }
    ++st.result.steps;
    h_largest = std::max(h_largest, step);
    if (event) {
      // Restart at the event with the switched row set (and q' projected onto it).
      t = t_new;
      y = y_event;
      if (!events.apply(t, y, g_event)) return;
      if (!f(y, t, k1)) return;
      h = step;
      continue;
    }
    t = t_new;
    y = y_new;
    k1 = k7;  // first same as last
    h = step * std::min(5.0, 0.9 * std::pow(std::max(e, 1e-10), -0.2));
    bool changed = false;
    if (!stage.after_step(t, step, h_largest, y, changed)) return;
    if (changed && !f(y, t, k1)) return;
  }
  st.result.completed = true;
}

// qtz-reduced: Del Citto et al.'s reduced DAE (eq. 46) integrated by SUNDIALS IDA
// (mechanics/dynamics/detail/qtz_reduced_dae.hpp) instead of the integrator, records at t_start + k
// dt, each from an IDA step that ends there. `rebases`: how often the combined constraints were
// rebuilt.
void run_dae(const model& m, acceleration_solver& solver, formulation& form,
             const simulation_options& o, acceleration_solver* reference, const Eigen::VectorXd& q0,
             const Eigen::VectorXd& qd0, run_state& st, long long& rebases) {
  dynamics dyn(m, solver, form, o, st);
  qtz_reduced_dae dae(m, o.formulation, o, q0, qd0, o.t_start);
  const auto outputs = grid_intervals(o.t_end - o.t_start, o.dt);
  Eigen::VectorXd q = q0, qd = qd0;
  for (long long k = 0;; ++k) {
    const double t = k == outputs ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
    const bool advanced = k == 0 || dae.advance_to(t, q, qd);
    st.result.steps = dae.steps();
    st.result.rejected_steps = dae.error_test_failures();
    rebases = dae.rebases();
    if (!advanced) {
      stop_run(st,
               dae.failure() == dae_failure::step_size    ? simulation_stop::step_size
               : dae.failure() == dae_failure::non_finite ? simulation_stop::non_finite
                                                          : simulation_stop::not_converged,
               dae.message());
      return;
    }
    // The acceleration and constraint forces of the record from the solver at this state.
    const acceleration_result* a = dyn.solve(q, qd, t);
    if (a == nullptr) return;
    make_record(m, dyn, reference, o, t, q, qd, *a, st, k == outputs);
    if (st.halt) return;
    if (k == outputs) break;
  }
  st.result.completed = true;
}

}  // namespace

simulation_result simulate_from(const model& m, const Eigen::VectorXd& q0,
                                const Eigen::VectorXd& qd0, acceleration_solver& solver,
                                const simulation_options& options, const step_callback& on_step,
                                acceleration_solver* reference) {
  options.validate();
  if (q0.size() != m.coordinates() || qd0.size() != m.coordinates()) {
    throw std::invalid_argument("simulate_from: initial state has the wrong size");
  }
  run_state st;
  st.callback = &on_step;
  st.thinner = record_thinner(options.record_every);
  st.result.max_reference_difference = reference != nullptr ? 0.0 : nan;
  st.result.initial_energy = st.result.final_energy = nan;
  st.result.solver = solver.name();
  st.result.reference_solver = reference != nullptr ? reference->name() : std::string();
  st.result.integrator = options.integrator;
  st.result.stabilization = options.stabilization;
  st.result.has_energy = m.has_energy();
  // Forces with a potential and no driver doing work: the energy must stay constant.
  st.result.conservative =
      m.has_energy() &&
      std::none_of(m.driver_rows().begin(), m.driver_rows().end(), [](bool d) { return d; });
  st.result.allow_unconverged = options.allow_unconverged;
  std::unique_ptr<intermittent_set> intermittent;
  if (m.has_intermittent()) {
    // Only the full formulation sees the model's rows as they are; the others (and IDA) build
    // their own reduced coordinates from a fixed row set.
    if (options.formulation.kind != formulation_kind::full) {
      throw io::option_error(
          "formulation",
          fmt::format("'{}' cannot simulate a model with intermittent constraints (switched on "
                      "and off): use the full formulation",
                      to_string(options.formulation.kind)));
    }
    if (options.stabilization == stabilization_kind::projection) {
      throw io::option_error("stabilization",
                             "projection cannot simulate a model with intermittent constraints "
                             "(it would project onto the rows switched off): use none or "
                             "baumgarte");
    }
    intermittent = std::make_unique<intermittent_set>(m);
    st.intermittent = intermittent.get();
    st.result.conservative = false;  // friction and switches on dissipate energy
  }
  const std::unique_ptr<formulation> form = make_formulation(m, options.formulation, options);
  st.result.solver = form->solver(solver).name();
  const auto started = std::chrono::steady_clock::now();
  long long rebases = 0;
  if (options.formulation.kind == formulation_kind::qtz_reduced) {
    run_dae(m, solver, *form, options, reference, q0, qd0, st, rebases);
  } else if (options.integrator == integrator_kind::rk4) {
    run_rk4(m, solver, *form, options, reference, q0, qd0, st);
  } else {
    run_dopri(m, solver, *form, options, reference, q0, qd0, st);
  }
  st.result.formulation = form->report();
  st.result.formulation.repartitions += rebases;
  st.result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return std::move(st.result);
}

simulation_result simulate(const model& m, acceleration_solver& solver,
                           const simulation_options& options, const step_callback& on_step,
                           acceleration_solver* reference) {
  return simulate_from(m, m.initial_positions(), m.initial_velocities(), solver, options, on_step,
                       reference);
}

bool record_thinner::keep(step_record& r, bool last) {
  const bool kept = last || index_++ % every_ == 0;
  if (kept) {
    r.worst_status = worse(r.worst_status, std::exchange(dropped_worst_, solve_status::ok));
    r.unconverged_solves += std::exchange(dropped_unconverged_, 0);
  } else {
    dropped_worst_ = worse(dropped_worst_, r.worst_status);
    dropped_unconverged_ += r.unconverged_solves;
  }
  return kept;
}

void simulation_options::validate() const {
  io::require_real("t_start", t_start, io::any_finite());
  io::require_real("t_end", t_end, {t_start, std::numeric_limits<double>::infinity(), true});
  io::require_real("dt", dt, io::positive());
  const double steps = grid_steps(t_end - t_start, dt);
  if (steps > max_simulation_steps) {
    throw io::option_error(
        "dt", fmt::format("gives more than {:.0e} steps from t = {:g} to {:g} (got {:g}; the "
                          "limit of steps per run, docs/mechanics.md)",
                          max_simulation_steps, t_start, t_end, dt));
  }
  if (record_every >= 1 && std::ceil(steps / record_every) > max_grid_steps) {
    throw io::option_error(
        "dt", fmt::format("gives more than {:.0e} rows from t = {:g} to {:g} (got {:g}; the "
                          "limit of rows kept per run, docs/mechanics.md: a larger dt or "
                          "--record-every)",
                          max_grid_steps, t_start, t_end, dt));
  }
  io::require_real("rtol", rtol, {0.0, 1.0, true, true});
  io::require_real("atol", atol, io::non_negative());
  io::require_real("dt_min", dt_min, io::positive());
  io::require_real("event_tolerance", event_tolerance, io::positive());
  io::require_real("baumgarte_alpha", baumgarte_alpha, io::non_negative());
  io::require_real("baumgarte_beta", baumgarte_beta, io::non_negative());
  io::require_real("baumgarte_gamma", baumgarte_gamma, io::non_negative());
  io::require_real("projection_tolerance", projection_tolerance, io::positive());
  io::require_integer("projection_iterations", projection_iterations, 1);
  io::require_integer("record_every", record_every, 1);
  io::require_real("divergence_growth", divergence_growth,
                   {1.0, std::numeric_limits<double>::infinity(), true});
  io::require_real("divergence_violation", divergence_violation, io::positive());
  io::require_real("divergence_energy", divergence_energy,
                   {1.0, std::numeric_limits<double>::infinity(), true});
  formulation.validate();
}

std::vector<std::string> record_columns(const model& m, bool with_reference) {
  std::vector<std::string> c{"t"};
  for (const auto& n : m.coordinate_names()) c.push_back(n);
  for (const auto& n : m.coordinate_names()) c.push_back(n + "_dot");
  for (const auto& n : m.coordinate_names()) c.push_back(n + "_ddot");
  c.push_back("position_violation");
  c.push_back("velocity_violation");
  if (m.has_energy()) c.push_back("energy");
  for (const auto& n : m.coordinate_names()) c.push_back("fc_" + n);
  if (with_reference) c.push_back("reference_difference");
  // Appended last so that the columns before keep their positions.
  c.push_back("solve_status");
  c.push_back("unconverged_solves");
  for (const auto& k : m.intermittent_constraints()) {
    c.push_back(m.constraint_names()[static_cast<std::size_t>(k.row)] + "_active");
  }
  for (const auto& k : m.intermittent_constraints()) {
    c.push_back(m.constraint_names()[static_cast<std::size_t>(k.row)] + "_slip");
  }
  return c;
}

std::vector<double> record_row(const model& m, const step_record& r, bool with_reference) {
  std::vector<double> v{r.t};
  auto add = [&v](const Eigen::VectorXd& x) { v.insert(v.end(), x.data(), x.data() + x.size()); };
  add(r.q);
  add(r.qd);
  add(r.qdd);
  v.push_back(r.position_violation);
  v.push_back(r.velocity_violation);
  if (m.has_energy()) v.push_back(r.energy);
  add(r.constraint_force);
  if (with_reference) v.push_back(r.reference_difference);
  v.push_back(static_cast<double>(static_cast<int>(r.worst_status)));
  v.push_back(static_cast<double>(r.unconverged_solves));
  for (std::size_t k = 0; k < m.intermittent_constraints().size(); ++k) {
    v.push_back(k < r.active.size() ? static_cast<double>(r.active[k]) : nan);
  }
  for (std::size_t k = 0; k < m.intermittent_constraints().size(); ++k) {
    v.push_back(k < r.slip.size() ? r.slip[k] : nan);
  }
  return v;
}

}  // namespace kinevo::mechanics
