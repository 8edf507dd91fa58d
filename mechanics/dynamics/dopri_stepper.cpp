// Dormand-Prince 5(4) (the RK5(4)7M pair, first same as last) with step-size control, and its
// continuous extension of order 4 for the records at t_start + k dt (the dense-output
// coefficients of Hairer, Norsett and Wanner's DOPRI5), so steps are not tied to dt.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/mechanics/dynamics/detail/event_monitor.hpp"
#include "kinevo/mechanics/dynamics/detail/simulation_stepper.hpp"

namespace kinevo::mechanics {

namespace {

enum class dopri_attempt { accepted, rejected, failed };

class dopri_stepper final : public simulation_stepper {
 public:
  explicit dopri_stepper(const stepper_context& c)
      : c_(c),
        dyn_(c.m, c.solver, c.form, c.options, c.state),
        stage_(c.form, dyn_, c.state),
        events_(c.options, c.form, stage_, dyn_, c.state),
        outputs_(grid_intervals(c.options.t_end - c.options.t_start, c.options.dt)),
        t_(c.options.t_start),
        h_(c.options.dt) {}

  // The next record: from the step accepted last while its interval holds output times, else
  // after further steps (rejected ones included).
  bool advance() override {
    if (over_) return false;
    if (!started_) {
      started_ = true;
      return start();
    }
    for (;;) {
      if (pending_) {
        if (out_index_ <= outputs_ &&
            output_time(out_index_) <= t_new_ + 1e-12 * std::max(1.0, std::abs(t_new_))) {
          return emit();
        }
        pending_ = false;
        if (!finish_step()) return end();
      }
      if (out_index_ > outputs_) {
        c_.state.result.completed = true;
        return end();
      }
      if (attempt_step() == dopri_attempt::failed) return end();
    }
  }

 private:
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

  double output_time(long long k) const {
    const simulation_options& o = c_.options;
    return k == outputs_ ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
  }
  bool end() {
    over_ = true;
    return false;
  }
  bool f(const Eigen::VectorXd& yy, double tt, Eigen::VectorXd& k) {
    return stage_.evaluate(yy, tt, k) != nullptr;
  }

  // The first record, at t_start.
  bool start() {
    y_ = c_.form.begin(c_.q0, c_.qd0, c_.options.t_start);
    if (events_.enabled() && !events_.start(y_, c_.options.t_start)) return end();
    const acceleration_result* a0 = stage_.evaluate(y_, t_, k1_);
    if (a0 == nullptr) return end();
    make_record(c_.m, dyn_, c_.reference, c_.options, t_, stage_.q(), stage_.qd(), *a0, c_.state,
                false);
    if (c_.state.halt) return end();
    return true;
  }

  // The stages k2..k7 of a step of length `step` from (t, y); y_new the fifth-order solution.
  bool stages(double step) {
    const Eigen::VectorXd& y = y_;
    const double t = t_;
    stage_.set_recoverable(true);
    const bool stages_ok =
        f(y + step * a21 * k1_, t + c2 * step, k2_) &&
        f(y + step * (a31 * k1_ + a32 * k2_), t + c3 * step, k3_) &&
        f(y + step * (a41 * k1_ + a42 * k2_ + a43 * k3_), t + c4 * step, k4_) &&
        f(y + step * (a51 * k1_ + a52 * k2_ + a53 * k3_ + a54 * k4_), t + c5 * step, k5_) &&
        f(y + step * (a61 * k1_ + a62 * k2_ + a63 * k3_ + a64 * k4_ + a65 * k5_), t + step, k6_);
    y_new_ = y + step * (b1 * k1_ + b3 * k3_ + b4 * k4_ + b5 * k5_ + b6 * k6_);
    const bool last_ok = stages_ok && f(y_new_, t + step, k7_);
    stage_.set_recoverable(false);
    return last_ok;
  }

  // One attempted step: accepted (its output times are then pending), rejected (a smaller
  // step follows) or failed (the run stops).
  dopri_attempt attempt_step() {
    const simulation_options& o = c_.options;
    run_state& st = c_.state;
    const double step = std::min(h_, o.t_end - t_);
    if (!stages(step)) {
      if (!stage_.expand_failed()) return dopri_attempt::failed;  // the run was stopped
      // The coordinates could not be recovered inside the step: reject it, try a quarter.
      ++st.result.rejected_steps;
      h_ = step / 4;
      if (h_ < o.dt_min) {
        stop_run(st, simulation_stop::not_converged,
                 fmt::format("stopped at t = {:.6g}: {} (also at steps down to {:g})", t_,
                             stage_.message(), o.dt_min));
        return dopri_attempt::failed;
      }
      return dopri_attempt::rejected;
    }
    const Eigen::VectorXd err =
        step * (e1 * k1_ + e3 * k3_ + e4 * k4_ + e5 * k5_ + e6 * k6_ + e7 * k7_);
    const Eigen::VectorXd scale =
        (o.atol + o.rtol * y_.cwiseAbs().cwiseMax(y_new_.cwiseAbs()).array()).matrix();
    // A formulation with no independent coordinates (a driven mechanism) has nothing to control.
    const double e =
        y_.size() == 0
            ? 0.0
            : std::sqrt((err.cwiseQuotient(scale)).squaredNorm() / static_cast<double>(y_.size()));
    if (!(e <= 1.0) || !std::isfinite(e)) {
      ++st.result.rejected_steps;
      h_ = step * std::max(0.2, 0.9 * std::pow(std::isfinite(e) ? e : 1e10, -0.2));
      if (h_ < o.dt_min) {
        stop_run(st, simulation_stop::step_size,
                 fmt::format("stopped at t = {:.6g}: step size fell below {:g}", t_, o.dt_min));
        return dopri_attempt::failed;
      }
      return dopri_attempt::rejected;
    }
    step_ = step;
    e_ = e;
    return accept_step() ? dopri_attempt::accepted : dopri_attempt::failed;
  }

  // An accepted step: its continuous extension, and the switch of an intermittent constraint
  // inside it (the step then ends at the switch, located on the continuous extension).
  bool accept_step() {
    const simulation_options& o = c_.options;
    const double step = step_;
    t_old_ = t_;
    t_new_ =
        o.t_end - (t_ + step) <= 1e-12 * std::max(1.0, std::abs(o.t_end)) ? o.t_end : t_ + step;
    r2_ = y_new_ - y_;
    r3_ = step * k1_ - r2_;
    r4_ = r2_ - step * k7_ - r3_;
    r5_ = step * (d1 * k1_ + d3 * k3_ + d4 * k4_ + d5 * k5_ + d6 * k6_ + d7 * k7_);
    event_ = false;
    if (events_.enabled()) {
      Eigen::VectorXd g;
      if (!events_.values(y_new_, t_new_, g)) return false;
      if (events_.crossed(g)) {
        double s = step;
        auto on_dense = [&](double length, Eigen::VectorXd& out) {
          out = dense(length / step);
          return true;
        };
        if (!events_.locate(on_dense, t_old_, step, y_new_, g, s, y_event_, g_event_)) {
          return false;
        }
        event_ = true;
        if (s < step) t_new_ = t_old_ + s;
      } else {
        events_.accept(g);
      }
    }
    pending_ = true;
    return true;
  }

  Eigen::VectorXd dense(double th) const {
    return y_ + th * (r2_ + (1.0 - th) * (r3_ + th * (r4_ + (1.0 - th) * r5_)));
  }

  // The record at the next output time inside the accepted step.
  bool emit() {
    const double t_out = output_time(out_index_);
    const double th = (t_out - t_old_) / step_;
    const Eigen::VectorXd y_out = (out_index_ == outputs_ && !event_) || th >= 1.0
                                      ? y_new_
                                      : (event_ && t_out >= t_new_ ? y_event_ : dense(th));
    const acceleration_result* a = stage_.evaluate(y_out, t_out, unused_);
    if (a == nullptr) return end();
    make_record(c_.m, dyn_, c_.reference, c_.options, t_out, stage_.q(), stage_.qd(), *a, c_.state,
                out_index_ == outputs_);
    if (c_.state.halt) return end();
    ++out_index_;
    if (out_index_ <= outputs_) return true;
    // The last record: the step is finished as any other before the run completes.
    pending_ = false;
    if (finish_step()) c_.state.result.completed = true;
    return end();
  }

  // After the records of an accepted step: on from its end (or from the switch, with the
  // switched row set and q' projected onto it), with the next step size.
  bool finish_step() {
    ++c_.state.result.steps;
    h_largest_ = std::max(h_largest_, step_);
    if (event_) {
      t_ = t_new_;
      y_ = y_event_;
      if (!events_.apply(t_, y_, g_event_)) return false;
      if (!f(y_, t_, k1_)) return false;
      h_ = step_;
      return true;
    }
    t_ = t_new_;
    y_ = y_new_;
    k1_ = k7_;  // first same as last
    h_ = step_ * std::min(5.0, 0.9 * std::pow(std::max(e_, 1e-10), -0.2));
    bool changed = false;
    if (!stage_.after_step(t_, step_, h_largest_, y_, changed)) return false;
    return !changed || f(y_, t_, k1_);
  }

  stepper_context c_;
  run_dynamics dyn_;
  stage_evaluator stage_;
  event_monitor events_;
  long long outputs_;
  double t_;
  double h_;
  double h_largest_ = 0.0;  // the largest accepted step so far (the formulations' h_max)
  long long out_index_ = 1;
  Eigen::VectorXd y_, k1_, k2_, k3_, k4_, k5_, k6_, k7_, y_new_, unused_;
  // The step accepted last: its length, error, interval, continuous extension and switch.
  double step_ = 0.0, e_ = 0.0, t_old_ = 0.0, t_new_ = 0.0;
  Eigen::VectorXd r2_, r3_, r4_, r5_, y_event_, g_event_;
  bool event_ = false;
  bool pending_ = false;  // its output times are not all recorded yet
  bool started_ = false;
  bool over_ = false;
};

}  // namespace

std::unique_ptr<simulation_stepper> make_dopri_stepper(const stepper_context& c) {
  return std::make_unique<dopri_stepper>(c);
}

}  // namespace kinevo::mechanics
