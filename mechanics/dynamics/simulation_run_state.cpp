#include "kinevo/mechanics/dynamics/detail/simulation_run_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/mechanics/dynamics/detail/run_dynamics.hpp"

namespace kinevo::mechanics {

namespace {

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
  // Agreed at every record (also when already halting) so that processes that agree through it
  // (MPI ranks) call it equally often.
  const bool interrupted = st.context.agreed(st.context.interrupt_requested());
  if (!st.halt && st.result.stop == simulation_stop::none && interrupted) {
    stop_run(st, simulation_stop::interrupted, fmt::format("interrupted at t = {:.6g}", r.t));
  }
  if (st.result.stop != simulation_stop::none) {
    st.halt = true;
    r.final = true;
  }
}

// The record's constraint violations and energy (simulation_options::diagnostics). False when one
// of them is not finite: the run is stopped, naming the quantity.
bool record_diagnostics(const model& m, double t, const Eigen::VectorXd& q,
                        const Eigen::VectorXd& qd, step_record& r, run_state& st) {
  constexpr double no_value = std::numeric_limits<double>::quiet_NaN();
  const Eigen::VectorXd phi = m.position_violation(q, t);
  const Eigen::VectorXd c = m.velocity_violation(q, qd, t);
  r.position_violation = phi.size() > 0 ? phi.cwiseAbs().maxCoeff() : 0.0;
  r.velocity_violation = st.intermittent != nullptr ? st.intermittent->velocity_violation(q, qd, t)
                         : c.size() > 0             ? c.cwiseAbs().maxCoeff()
                                                    : 0.0;
  const auto e = m.energy(q, qd, t);
  r.energy = e ? *e : no_value;
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
    return false;
  }
  return true;
}

// The largest difference from the reference solver at this state (--check).
void compare_with_reference(run_dynamics& dyn, acceleration_solver* reference, step_record& r,
                            run_state& st) {
  constexpr double no_value = std::numeric_limits<double>::quiet_NaN();
  r.reference_difference = no_value;
  if (reference != nullptr) {
    // (A compact system's dense form only here: the comparison is a diagnostic.)
    const constrained_system& solved = dyn.system();
    const acceleration_result ref =
        solved.compact ? reference->solve(dense_system(solved)) : reference->solve(solved);
    r.reference_difference = refused(ref) || r.qdd.size() == 0
                                 ? no_value
                                 : (ref.acceleration - r.qdd).cwiseAbs().maxCoeff();
    st.result.max_reference_difference =
        std::isnan(st.result.max_reference_difference)
            ? r.reference_difference
            : std::max(st.result.max_reference_difference, r.reference_difference);
  }
}

// The run's extremes and energy change over its records; the first record sets the scales.
// Returns whether this was the first record.
bool tally_record(const simulation_options& o, const step_record& r, run_state& st) {
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
  return first;
}

}  // namespace

void make_record(const model& m, run_dynamics& dyn, acceleration_solver* reference,
                 const simulation_options& o, double t, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& qd, const acceleration_result& a, run_state& st,
                 bool force_keep) {
  constexpr double no_value = std::numeric_limits<double>::quiet_NaN();
  const bool streaming = st.callback != nullptr && *st.callback;
  // Always the streamed record, so that the latest one stays readable (simulator::last()).
  step_record& r = st.streamed;
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
  r.energy = no_value;
  if (o.diagnostics && !record_diagnostics(m, t, q, qd, r, st)) return;
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
  compare_with_reference(dyn, reference, r, st);
  const bool first = tally_record(o, r, st);
  auto& res = st.result;
  res.last_t = t;
  ++st.records;
  r.final = force_keep;
  check_halt(o, r, st, first);
  if (st.context.on_progress) {
    st.context.report({.fraction = (t - o.t_start) / (o.t_end - o.t_start),
                       .step = st.records,
                       .text = fmt::format("t = {:.4g}", t)});
  }
  if (streaming) {
    if (!(*st.callback)(r) && !st.halt) {
      stop_run(st, simulation_stop::caller, fmt::format("stopped by the caller at t = {:.6g}", t));
      st.halt = true;
    }
  } else if (st.thinner.keep(r, r.final)) {
    res.records.push_back(r);
  }
}

}  // namespace kinevo::mechanics
