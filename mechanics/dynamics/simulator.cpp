#include "kinevo/mechanics/dynamics/simulator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/intermittent_constraints.hpp"
#include "kinevo/mechanics/dynamics/detail/simulation_stepper.hpp"
#include "kinevo/mechanics/dynamics/formulation.hpp"

namespace kinevo::mechanics {

std::unique_ptr<simulation_stepper> make_simulation_stepper(const stepper_context& c) {
  if (c.options.formulation.kind == formulation_kind::qtz_reduced) return make_dae_stepper(c);
  if (c.options.integrator == integrator_kind::rk4) return make_rk4_stepper(c);
  return make_dopri_stepper(c);
}

struct simulator::impl {
  impl(const model& model_, acceleration_solver& solver_, const simulation_options& options_,
       step_callback on_step_, acceleration_solver* reference_, Eigen::VectorXd q0_,
       Eigen::VectorXd qd0_, core::run_context context_)
      : m(model_),
        solver(solver_),
        reference(reference_),
        options(options_),
        on_step(std::move(on_step_)),
        q0(std::move(q0_)),
        qd0(std::move(qd0_)),
        context(std::move(context_)) {}

  const model& m;
  acceleration_solver& solver;
  acceleration_solver* reference;
  simulation_options options;
  step_callback on_step;
  Eigen::VectorXd q0, qd0;
  core::run_context context;
  run_state st;
  std::unique_ptr<intermittent_set> intermittent;
  std::unique_ptr<formulation> form;
  std::unique_ptr<simulation_stepper> stepper;
  double wall_seconds = 0.0;
  bool over = false;
  // The model and solver `m` and `solver` refer to when the simulator owns them (on the heap:
  // a new run of set_state takes them over at the same addresses).
  std::unique_ptr<model> owned_model;
  std::unique_ptr<acceleration_solver> owned_solver;

  // The run's setup (what ran, the intermittent rows, the formulation), then its first record.
  void start() {
    const auto started = std::chrono::steady_clock::now();
    options.validate();
    if (q0.size() != m.coordinates()) {
      throw io::option_error(
          "q", fmt::format("{} values for the model's {} coordinates", q0.size(), m.coordinates()));
    }
    if (qd0.size() != m.coordinates()) {
      throw io::option_error("qd", fmt::format("{} values for the model's {} coordinates",
                                               qd0.size(), m.coordinates()));
    }
    describe_run();
    if (m.has_intermittent()) start_intermittent();
    form = make_formulation(m, options.formulation, options);
    st.result.solver = form->solver(solver).name();
    stepper = make_simulation_stepper({m, solver, *form, options, reference, q0, qd0, st});
    over = !stepper->advance();
    wall_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }

  void describe_run() {
    constexpr double unset = std::numeric_limits<double>::quiet_NaN();
    st.callback = &on_step;
    st.context = context;
    st.thinner = record_thinner(options.record_every);
    st.result.max_reference_difference = reference != nullptr ? 0.0 : unset;
    st.result.initial_energy = st.result.final_energy = unset;
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
  }

  void start_intermittent() {
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

  bool advance() {
    if (over) return false;
    const auto started = std::chrono::steady_clock::now();
    over = !stepper->advance();
    wall_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return !over;
  }

  // The result's parts known only from the formulation and the stepper.
  void complete(simulation_result& r) const {
    r.formulation = form->report();
    r.formulation.repartitions += stepper->rebases();
    r.wall_seconds = wall_seconds;
  }
};

simulator::simulator(const model& m, acceleration_solver& solver, const simulation_options& options,
                     step_callback on_step, acceleration_solver* reference,
                     const core::run_context& context)
    : simulator(m, m.initial_positions(), m.initial_velocities(), solver, options,
                std::move(on_step), reference, context) {}

simulator::simulator(const model& m, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                     acceleration_solver& solver, const simulation_options& options,
                     step_callback on_step, acceleration_solver* reference,
                     const core::run_context& context)
    : impl_(std::make_unique<impl>(m, solver, options, std::move(on_step), reference, q0, qd0,
                                   context)) {
  impl_->start();
}

simulator::simulator(model m, const std::string& solver, const solver_options& solver_settings,
                     const simulation_options& options) {
  auto owned_model = std::make_unique<model>(std::move(m));
  auto owned_solver = make_solver(solver, solver_settings);
  impl_ = std::make_unique<impl>(*owned_model, *owned_solver, options, step_callback{}, nullptr,
                                 owned_model->initial_positions(),
                                 owned_model->initial_velocities(), core::run_context{});
  impl_->owned_model = std::move(owned_model);
  impl_->owned_solver = std::move(owned_solver);
  impl_->start();
}

simulator::~simulator() = default;
simulator::simulator(simulator&&) noexcept = default;
simulator& simulator::operator=(simulator&&) noexcept = default;

bool simulator::advance() {
  return impl_->advance();
}

bool simulator::step() {
  while (impl_->advance()) {
    if (impl_->stepper->on_grid()) return true;
  }
  return false;
}

bool simulator::step(long long n) {
  for (long long i = 0; i < n; ++i) {
    if (!step()) return false;
  }
  return running();
}

bool simulator::running() const {
  return !impl_->over;
}

bool simulator::has_record() const {
  return impl_->st.records > 0;
}

long long simulator::record_count() const {
  return impl_->st.records;
}

double simulator::t() const {
  return has_record() ? last().t : impl_->options.t_start;
}

const Eigen::VectorXd& simulator::q() const {
  return has_record() ? last().q : impl_->q0;
}

const Eigen::VectorXd& simulator::qd() const {
  return has_record() ? last().qd : impl_->qd0;
}

const step_record& simulator::last() const {
  return impl_->st.streamed;
}

void simulator::set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) {
  const model& m = impl_->m;
  const auto n = m.coordinates();
  const auto check = [n](const char* name, const Eigen::VectorXd& v) {
    if (v.size() != n) {
      throw io::option_error(
          name, fmt::format("must have one value per coordinate ({}), got {}", n, v.size()));
    }
    if (!v.allFinite()) throw io::option_error(name, "must be finite (no NaN or infinity)");
  };
  check("q", q);
  check("qd", qd);
  const double t_end = impl_->options.t_end;
  if (!std::isfinite(t) || !(t < t_end)) {
    throw io::option_error(
        "t", fmt::format("must be finite and before t_end = {:g}, got {:g}", t_end, t));
  }
  simulation_options o = impl_->options;
  o.t_start = t;
  // Built aside, so that a failure leaves this simulator as it was.
  auto fresh = std::make_unique<impl>(m, impl_->solver, o, impl_->on_step, impl_->reference, q, qd,
                                      impl_->context);
  fresh->start();
  fresh->owned_model = std::move(impl_->owned_model);
  fresh->owned_solver = std::move(impl_->owned_solver);
  impl_ = std::move(fresh);
}

simulation_result simulator::result() const {
  simulation_result r = impl_->st.result;
  impl_->complete(r);
  return r;
}

simulation_result simulator::take_result() {
  impl_->over = true;
  simulation_result r = std::move(impl_->st.result);
  impl_->complete(r);
  return r;
}

const simulation_options& simulator::options() const {
  return impl_->options;
}

const model& simulator::the_model() const {
  return impl_->m;
}

}  // namespace kinevo::mechanics
