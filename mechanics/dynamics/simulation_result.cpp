#include "kinevo/mechanics/dynamics/simulation_result.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "kinevo/io/json_number.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::mechanics {

namespace {

// `allowed` lists the names a message offers (aliases left out).
template <class Enum, std::size_t N>
Enum parse_name(std::string_view name, const std::array<std::pair<const char*, Enum>, N>& names,
                const std::string& field, const char* allowed) {
  for (const auto& [text, value] : names) {
    if (name == text) return value;
  }
  throw io::option_error(field, fmt::format("'{}': use {}", name, allowed));
}

constexpr std::array<std::pair<const char*, integrator_kind>, 3> integrator_names{{
    {"rk4", integrator_kind::rk4},
    {"dopri", integrator_kind::dormand_prince},
    {"dormand-prince", integrator_kind::dormand_prince},
}};

constexpr std::array<std::pair<const char*, stabilization_kind>, 3> stabilization_names{{
    {"none", stabilization_kind::none},
    {"baumgarte", stabilization_kind::baumgarte},
    {"projection", stabilization_kind::projection},
}};

constexpr std::array<std::pair<const char*, simulation_stop>, 9> stop_names{{
    {"none", simulation_stop::none},
    {"refused", simulation_stop::refused},
    {"not_converged", simulation_stop::not_converged},
    {"non_finite", simulation_stop::non_finite},
    {"step_size", simulation_stop::step_size},
    {"caller", simulation_stop::caller},
    {"diverged", simulation_stop::diverged},
    {"interrupted", simulation_stop::interrupted},
    {"chattering", simulation_stop::chattering},
}};

}  // namespace

const char* to_string(integrator_kind k) {
  return k == integrator_kind::rk4 ? "rk4" : "dopri";
}

integrator_kind parse_integrator(std::string_view name, const std::string& field) {
  return parse_name(name, integrator_names, field, "rk4 or dopri");
}

const char* to_string(stabilization_kind k) {
  for (const auto& [text, value] : stabilization_names) {
    if (value == k) return text;
  }
  return "unknown";
}

stabilization_kind parse_stabilization(std::string_view name, const std::string& field) {
  return parse_name(name, stabilization_names, field, "none, baumgarte or projection");
}

const char* stop_name(simulation_stop s) {
  for (const auto& [text, value] : stop_names) {
    if (value == s) return text;
  }
  return "unknown";
}

const char* to_string(simulation_stop s) {
  return stop_name(s);
}

simulation_stop parse_simulation_stop(std::string_view name) {
  return parse_name(name, stop_names, "stop_reason",
                    "none, refused, not_converged, non_finite, step_size, caller, diverged or "
                    "interrupted");
}

std::string simulation_result::integrator_name() const {
  return formulation.name == to_string(formulation_kind::qtz_reduced) ? "ida"
                                                                      : to_string(integrator);
}

double simulation_result::max_energy_deviation() const {
  if (!std::isfinite(initial_energy) || initial_energy == 0.0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return max_energy_change / std::abs(initial_energy);
}

double simulation_result::energy_drift() const {
  return std::isfinite(initial_energy) && initial_energy != 0.0
             ? (final_energy - initial_energy) / std::abs(initial_energy)
             : std::numeric_limits<double>::quiet_NaN();
}

std::string simulation_result::status() const {
  if (completed) return "completed";
  if (diverged()) return "diverged";
  if (interrupted()) return "interrupted";
  return "failed";
}

std::string simulation_result::brief_report() const {
  const bool default_formulation = formulation.name.empty() || formulation.name == "full";
  std::string s = fmt::format(
      "{}: {} steps with {} ({}, {})", status(), steps, solver, integrator_name(),
      default_formulation ? to_string(stabilization) : "formulation " + formulation.name);
  if (std::isfinite(last_t)) s += fmt::format(" up to t = {:.6g}", last_t);
  if (!completed && !message.empty()) s += "; " + message;
  return s;
}

std::vector<std::string> simulation_result::notes() const {
  std::vector<std::string> out;
  if (!completed && stop == simulation_stop::not_converged && unconverged_solves > 0) {
    out.push_back("--allow-unconverged goes on past unconverged solves");
  }
  if (!completed && diverged()) {
    out.push_back(
        "a smaller --dt, --integrator dopri or --stabilization may help; the limits are "
        "--divergence-growth, --divergence-violation and --divergence-energy");
  }
  if (!completed && stop == simulation_stop::step_size && formulation.name != "qtz-state") {
    // Next to a singular configuration the stage accelerations of a formulation that integrates
    // off the constraint manifold grow like 1 / distance^2, and error control chases them down
    // to dt_min (docs/formulations.md, "Limits"); the reduced state of qtz-state is recovered
    // onto the manifold at every stage.
    out.push_back(
        "the step size collapses where the error control cannot meet --rtol/--atol: at a singular "
        "configuration (a mechanism lying flat) --formulation qtz-state or a looser --rtol may "
        "help; for a stiff force, a smaller --dt with rk4");
  }
  if (completed && unconverged_solves > 0) {
    out.push_back(fmt::format("warning: {} of {} solves did not converge (first at t = {:.6g}: {})",
                              unconverged_solves, solves, first_unconverged_t,
                              first_unconverged_message));
  }
  if (conservative && max_energy_deviation() > conservation_warning) {
    out.push_back(fmt::format(
        "warning: the energy of this conservative model changed by up to {:.3g}% of its initial "
        "value: the motion is not accurate (a smaller --dt; through singular configurations "
        "--formulation projection, hybrid or qtz-state: docs/formulations.md)",
        100.0 * max_energy_deviation()));
  }
  if (least_squares_solves > 0) {
    out.push_back(fmt::format(
        "warning: {} of {} solves are least-squares compromises (inconsistent constraints)",
        least_squares_solves, solves));
  }
  return out;
}

std::string simulation_result::full_report() const {
  std::string s = brief_report() + "\n";
  s += fmt::format("  max |Phi| = {:.3g}, max velocity violation = {:.3g}\n",
                   max_position_violation, max_velocity_violation);
  if (has_energy) {
    s += fmt::format(
        "  energy {:.10g} -> {:.10g} (relative drift {:.3g}, largest deviation {:.3g})\n",
        initial_energy, final_energy, energy_drift(), max_energy_deviation());
  }
  if (formulation.repartitions > 0) {
    s += fmt::format("  re-partitions: {}\n", formulation.repartitions);
  }
  if (formulation.exact_inverses > 0) {
    s += fmt::format("  exact generalized inverses: {}\n", formulation.exact_inverses);
  }
  for (const auto& w : formulation.switches) {
    s += fmt::format("  switch at t = {:.6g}: {} -> {} ({})\n", w.t, w.from, w.to, w.reason);
  }
  if (!reference_solver.empty()) {
    s += fmt::format("  max |a - a_{}| = {:.3g}\n", reference_solver, max_reference_difference);
  }
  if (solver_evaluations > 0) s += fmt::format("  solver evaluations: {}\n", solver_evaluations);
  if (unconverged_solves > 0) {
    s += fmt::format("  UNCONVERGED solves: {} of {} (first at t = {:.6g}){}\n", unconverged_solves,
                     solves, first_unconverged_t,
                     completed ? ", allowed by --allow-unconverged" : "");
  }
  if (least_squares_solves > 0) {
    s += fmt::format("  least-squares solves (inconsistent constraints): {} of {}\n",
                     least_squares_solves, solves);
  }
  for (const auto& e : events) {
    s += fmt::format("  event at t = {:.10g}: constraint '{}' {} (C = {:.3g})\n", e.t, e.constraint,
                     e.on ? "on" : "off", e.value);
  }
  s += fmt::format("  wall time {:.3g} s\n", wall_seconds);
  return s;
}

nlohmann::json simulation_result::to_json() const {
  nlohmann::json j;
  j["solver"] = solver;
  j["integrator"] = integrator_name();
  j["stabilization"] = to_string(stabilization);
  j["status"] = status();
  j["completed"] = completed;
  j["message"] = message;
  j["stop_reason"] = completed ? nlohmann::json(nullptr) : nlohmann::json(stop_name(stop));
  j["steps"] = steps;
  j["last_t"] = io::json_number(last_t);
  j["solves"] = solves;
  j["unconverged_solves"] = unconverged_solves;
  j["first_unconverged_t"] = io::json_number(first_unconverged_t);
  j["first_unconverged_message"] =
      unconverged_solves > 0 ? nlohmann::json(first_unconverged_message) : nlohmann::json(nullptr);
  j["allow_unconverged"] = allow_unconverged;
  j["least_squares_solves"] = least_squares_solves;
  j["rejected_steps"] = rejected_steps;
  j["max_position_violation"] = io::json_number(max_position_violation);
  j["max_velocity_violation"] = io::json_number(max_velocity_violation);
  j["energy"] =
      has_energy
          ? nlohmann::json{{"initial", io::json_number(initial_energy)},
                           {"final", io::json_number(final_energy)},
                           {"relative_drift", io::json_number(energy_drift())},
                           {"max_relative_deviation", io::json_number(max_energy_deviation())}}
          : nlohmann::json(nullptr);
  j["check"] = reference_solver.empty()
                   ? nlohmann::json(nullptr)
                   : nlohmann::json{{"solver", reference_solver},
                                    {"max_difference", io::json_number(max_reference_difference)}};
  j["formulation"] = formulation.name;
  nlohmann::json switches = nlohmann::json::array();
  for (const auto& w : formulation.switches) {
    switches.push_back({{"t", w.t}, {"from", w.from}, {"to", w.to}, {"reason", w.reason}});
  }
  j["switches"] = std::move(switches);
  j["repartitions"] = formulation.repartitions;
  j["corrections"] = formulation.corrections;
  j["exact_inverses"] = formulation.exact_inverses;
  j["solver_evaluations"] = solver_evaluations;
  j["divergence_scales"] = nlohmann::json{{"position", io::json_number(position_scale)},
                                          {"velocity", io::json_number(velocity_scale)}};
  j["wall_seconds"] = wall_seconds;
  nlohmann::json events_json = nlohmann::json::array();
  for (const auto& e : events) {
    events_json.push_back({{"t", e.t},
                           {"constraint", e.constraint},
                           {"kind", e.on ? "on" : "off"},
                           {"value", io::json_number(e.value)}});
  }
  j["events"] = std::move(events_json);
  return j;
}

}  // namespace kinevo::mechanics
