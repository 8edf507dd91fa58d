// qtz-reduced: Del Citto et al.'s reduced DAE (eq. 46) integrated by SUNDIALS IDA
// (mechanics/dynamics/detail/qtz_reduced_dae.hpp) instead of the integrator, records at t_start +
// k dt, each from an IDA step that ends there.
#include <memory>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"
#include "kinevo/mechanics/dynamics/detail/run_dynamics.hpp"
#include "kinevo/mechanics/dynamics/detail/simulation_stepper.hpp"

namespace kinevo::mechanics {

namespace {

class dae_stepper final : public simulation_stepper {
 public:
  explicit dae_stepper(const stepper_context& c)
      : c_(c),
        dyn_(c.m, c.solver, c.form, c.options, c.state),
        dae_(c.m, c.options.formulation, c.options, c.q0, c.qd0, c.options.t_start),
        outputs_(grid_intervals(c.options.t_end - c.options.t_start, c.options.dt)),
        q_(c.q0),
        qd_(c.qd0) {}

  bool advance() override {
    if (over_) return false;
    const simulation_options& o = c_.options;
    run_state& st = c_.state;
    const long long k = k_++;
    const double t = k == outputs_ ? o.t_end : o.t_start + static_cast<double>(k) * o.dt;
    const bool advanced = k == 0 || dae_.advance_to(t, q_, qd_);
    st.result.steps = dae_.steps();
    st.result.rejected_steps = dae_.error_test_failures();
    if (!advanced) {
      stop_run(st,
               dae_.failure() == dae_failure::step_size    ? simulation_stop::step_size
               : dae_.failure() == dae_failure::non_finite ? simulation_stop::non_finite
                                                           : simulation_stop::not_converged,
               dae_.message());
      return end();
    }
    // The acceleration and constraint forces of the record from the solver at this state.
    const acceleration_result* a = dyn_.solve(q_, qd_, t);
    if (a == nullptr) return end();
    make_record(c_.m, dyn_, c_.reference, o, t, q_, qd_, *a, st, k == outputs_);
    if (st.halt) return end();
    if (k == outputs_) {
      st.result.completed = true;
      return end();
    }
    return true;
  }
  // How often the combined constraints were rebuilt.
  long long rebases() const override { return dae_.rebases(); }

 private:
  bool end() {
    over_ = true;
    return false;
  }

  stepper_context c_;
  run_dynamics dyn_;
  qtz_reduced_dae dae_;
  long long outputs_;
  Eigen::VectorXd q_, qd_;
  long long k_ = 0;  // the next output point
  bool over_ = false;
};

}  // namespace

std::unique_ptr<simulation_stepper> make_dae_stepper(const stepper_context& c) {
  return std::make_unique<dae_stepper>(c);
}

}  // namespace kinevo::mechanics
