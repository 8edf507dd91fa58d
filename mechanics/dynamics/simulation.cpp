#include "kinevo/mechanics/dynamics/simulation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kinevo/core/grid_steps.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/mechanics/dynamics/detail/simulation_run_state.hpp"
#include "kinevo/mechanics/dynamics/simulator.hpp"

namespace kinevo::mechanics {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

}  // namespace

simulation_result simulate_from(const model& m, const Eigen::VectorXd& q0,
                                const Eigen::VectorXd& qd0, acceleration_solver& solver,
                                const simulation_options& options, const step_callback& on_step,
                                acceleration_solver* reference, const core::run_context& context) {
  simulator run(m, q0, qd0, solver, options, on_step, reference, context);
  while (run.advance()) {
  }
  return run.take_result();
}

simulation_result simulate(const model& m, acceleration_solver& solver,
                           const simulation_options& options, const step_callback& on_step,
                           acceleration_solver* reference, const core::run_context& context) {
  return simulate_from(m, m.initial_positions(), m.initial_velocities(), solver, options, on_step,
                       reference, context);
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
