// Classical Runge-Kutta with a fixed step dt, one record per grid point (and one per switch of
// an intermittent constraint, located by re-integrating the step with shorter ones).
#include <memory>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/mechanics/dynamics/detail/event_monitor.hpp"
#include "kinevo/mechanics/dynamics/detail/simulation_stepper.hpp"

namespace kinevo::mechanics {

namespace {

class rk4_stepper final : public simulation_stepper {
 public:
  explicit rk4_stepper(const stepper_context& c)
      : c_(c),
        dyn_(c.m, c.solver, c.form, c.options, c.state),
        stage_(c.form, dyn_, c.state),
        events_(c.options, c.form, stage_, dyn_, c.state),
        steps_(grid_intervals(c.options.t_end - c.options.t_start, c.options.dt)),
        t_(c.options.t_start) {}

  bool advance() override {
    if (over_) return false;
    if (!started_) {
      started_ = true;
      y_ = c_.form.begin(c_.q0, c_.qd0, c_.options.t_start);
      if (events_.enabled() && !events_.start(y_, c_.options.t_start)) return end();
    } else if (!step()) {
      return end();
    }
    return record();
  }
  bool on_grid() const override { return t_ == grid(k_); }

 private:
  double grid(long long k) const {
    const simulation_options& o = c_.options;
    return k == steps_ ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
  }
  bool end() {
    over_ = true;
    return false;
  }

  // The record at (t, y); the run's last at t_end.
  bool record() {
    const bool last = k_ == steps_ && t_ == c_.options.t_end;
    const acceleration_result* a1 = stage_.evaluate(y_, t_, k1_);
    if (a1 == nullptr) return end();
    make_record(c_.m, dyn_, c_.reference, c_.options, t_, stage_.q(), stage_.qd(), *a1, c_.state,
                last);
    if (c_.state.halt) return end();
    if (last) {
      c_.state.result.completed = true;
      return end();
    }
    return true;
  }

  // Classical Runge-Kutta on the integrated state, a length s from (t, y).
  bool rk4_step(double s, Eigen::VectorXd& out) {
    y_stage_ = y_ + 0.5 * s * k1_;
    if (stage_.evaluate(y_stage_, t_ + 0.5 * s, k2_) == nullptr) return false;
    y_stage_ = y_ + 0.5 * s * k2_;
    if (stage_.evaluate(y_stage_, t_ + 0.5 * s, k3_) == nullptr) return false;
    y_stage_ = y_ + s * k3_;
    if (stage_.evaluate(y_stage_, t_ + s, k4_) == nullptr) return false;
    out = y_ + s / 6.0 * (k1_ + 2.0 * k2_ + 2.0 * k3_ + k4_);
    return true;
  }

  // From t to the next grid point, or to the switch of an intermittent constraint inside the
  // step; false when the run must stop.
  bool step() {
    const double t_next = grid(k_ + 1);
    const double h = t_next - t_;
    if (!rk4_step(h, y_new_)) return false;
    bool changed = false;
    if (!stage_.after_step(t_next, h, c_.options.dt, y_new_, changed)) return false;
    ++c_.state.result.steps;
    if (events_.enabled()) {
      if (!events_.values(y_new_, t_next, g_)) return false;
      if (events_.crossed(g_)) {
        double s = h;
        Eigen::VectorXd y_event, g_event;
        auto path = [this](double length, Eigen::VectorXd& out) { return rk4_step(length, out); };
        if (!events_.locate(path, t_, h, y_new_, g_, s, y_event, g_event)) return false;
        const bool at_grid = s >= h;
        t_ = at_grid ? t_next : t_ + s;
        if (at_grid) ++k_;
        y_ = y_event;
        return events_.apply(t_, y_, g_event);
      }
      events_.accept(g_);
    }
    y_ = y_new_;
    t_ = t_next;
    ++k_;
    return true;
  }

  stepper_context c_;
  run_dynamics dyn_;
  stage_evaluator stage_;
  event_monitor events_;
  long long steps_;
  // The stages' vectors live across steps: sized once, no allocation per step.
  Eigen::VectorXd y_, k1_, k2_, k3_, k4_, y_stage_, y_new_, g_;
  double t_;
  // The last grid point reached; t is past it (and before the next) after an event.
  long long k_ = 0;
  bool started_ = false;
  bool over_ = false;
};

}  // namespace

std::unique_ptr<simulation_stepper> make_rk4_stepper(const stepper_context& c) {
  return std::make_unique<rk4_stepper>(c);
}

}  // namespace kinevo::mechanics
