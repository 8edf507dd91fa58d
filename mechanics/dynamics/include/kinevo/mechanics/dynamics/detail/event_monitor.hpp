// The switches of intermittent constraints in a simulation run: armed conditions, crossings
// located by bisection, switches applied.
#pragma once

#include <fmt/format.h>

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/stage_evaluator.hpp"

namespace kinevo::mechanics {

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
                run_dynamics& dyn, run_state& st)
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
  run_dynamics& dyn_;
  run_state& state_;
  std::vector<char> armed_;
  std::vector<double> last_switch_;
  Eigen::VectorXd scratch_;
  double t_ = 0.0;  // of the last values()
};

}  // namespace kinevo::mechanics
