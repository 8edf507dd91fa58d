// kinevo simulate: forward dynamics of a model file with a chosen acceleration solver,
// integrator and constraint-violation control; CSV of every state, SVG plot, JSON summary.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "io/csv_table.hpp"
#include "io/progress.hpp"
#include "io/svg_plot.hpp"
#include "mechanics/model.hpp"
#include "mechanics/simulation.hpp"
#include "mechanics/solver_factory.hpp"

namespace kinevo::cli {

namespace {

struct simulate_args {
  std::string file;
  std::string solver = "gigsp";
  std::string check;
  std::string integrator = "rk4";
  std::string stabilization = "none";
  std::vector<std::string> sets;
  std::vector<std::string> plot_columns;
  std::string out, plot;
  bool kinematic = false;
  bool allow_unconverged = false;
  mechanics::simulation_options sim;
  mechanics::solver_options solver_options;
  bool json = false;
  bool quiet = false;
};

double json_number(double v) {
  return v;
}

nlohmann::json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(json_number(v)) : nlohmann::json(nullptr);
}

int run_simulate(simulate_args& a) {
  static const std::map<std::string, mechanics::integrator_kind> integrators{
      {"rk4", mechanics::integrator_kind::rk4},
      {"dopri", mechanics::integrator_kind::dormand_prince},
      {"dormand-prince", mechanics::integrator_kind::dormand_prince}};
  static const std::map<std::string, mechanics::stabilization_kind> stabilizations{
      {"none", mechanics::stabilization_kind::none},
      {"baumgarte", mechanics::stabilization_kind::baumgarte},
      {"projection", mechanics::stabilization_kind::projection}};
  if (!integrators.count(a.integrator)) {
    throw io::input_error(fmt::format("--integrator '{}': use rk4 or dopri", a.integrator));
  }
  if (!stabilizations.count(a.stabilization)) {
    throw io::input_error(
        fmt::format("--stabilization '{}': use none, baumgarte or projection", a.stabilization));
  }
  a.sim.integrator = integrators.at(a.integrator);
  a.sim.stabilization = stabilizations.at(a.stabilization);
  a.sim.allow_unconverged = a.allow_unconverged;
  // Before the model loads, naming the command-line options (the library would name fields).
  validate_options(a.sim, {{"baumgarte_alpha", "--alpha"},
                           {"baumgarte_beta", "--beta"},
                           {"baumgarte_gamma", "--gamma"}});
  validate_options(a.solver_options);
  mechanics::model_options mo;
  mo.kinematic = a.kinematic;
  for (const auto& s : a.sets) mo.overrides.push_back(mechanics::parse_parameter_override(s));
  const mechanics::model m = mechanics::load_model(a.file, mo);
  auto solver = mechanics::make_solver(a.solver, a.solver_options);
  std::unique_ptr<mechanics::acceleration_solver> reference;
  if (!a.check.empty()) reference = mechanics::make_solver(a.check, a.solver_options);

  const bool with_ref = reference != nullptr;
  const auto columns = mechanics::record_columns(m, with_ref);
  io::csv_writer csv(columns);
  // Plotted columns: the coordinates unless chosen.
  std::vector<std::string> plotted = a.plot_columns;
  if (plotted.empty()) plotted = m.coordinate_names();
  std::vector<std::size_t> plot_index;
  for (const auto& p : plotted) {
    auto it = std::find(columns.begin(), columns.end(), p);
    if (it == columns.end()) {
      std::string list;
      for (const auto& c : columns) list += (list.empty() ? "" : ", ") + c;
      throw io::input_error(fmt::format("--plot-columns: no column '{}' (columns: {})", p, list));
    }
    plot_index.push_back(static_cast<std::size_t>(it - columns.begin()));
  }
  std::vector<io::chart_series> series(plotted.size());
  for (std::size_t i = 0; i < plotted.size(); ++i) series[i].label = plotted[i];

  io::progress_line progress("simulate", a.quiet || a.json);
  long long rows = 0;
  double last_row_t = std::numeric_limits<double>::quiet_NaN();
  const double span = a.sim.t_end - a.sim.t_start;
  // A written row flags every solve since the previous written row (--record-every).
  mechanics::record_thinner thinner(a.sim.record_every);
  bool warned = false;
  auto on_step = [&](const mechanics::step_record& r) {
    if (r.unconverged_solves > 0 && !warned) {
      // Only reached with --allow-unconverged: otherwise the run stops at that solve.
      warned = true;
      progress.finish();
      fmt::print(stderr,
                 "kinevo simulate: warning: a {} solve did not converge before t = {:.6g}; "
                 "going on (--allow-unconverged), the rows are flagged in unconverged_solves\n",
                 a.solver, r.t);
    }
    mechanics::step_record flagged = r;
    if (thinner.keep(flagged, r.t >= a.sim.t_end)) {
      const auto row = mechanics::record_row(m, flagged, with_ref);
      if (!a.out.empty()) csv.add_row(row);
      for (std::size_t i = 0; i < plot_index.size(); ++i) {
        series[i].x.push_back(r.t);
        series[i].y.push_back(row[plot_index[i]]);
      }
      ++rows;
      last_row_t = r.t;
    }
    progress.update((r.t - a.sim.t_start) / span, fmt::format("t = {:.4g}", r.t));
    return true;
  };
  const mechanics::simulation_result res =
      mechanics::simulate(m, *solver, a.sim, on_step, reference.get());
  progress.finish();
  // Whatever was computed is saved, also when the run stopped early: the rows before the stop
  // (a row is only written once every solve that led to it was accepted).
  if (!a.out.empty()) csv.save(a.out);
  // Failures and unconverged solves go to stderr whatever --json or --quiet say.
  const std::string up_to =
      rows > 0 ? fmt::format("up to t = {:.6g} ({} rows)", last_row_t, rows) : "(no rows)";
  if (!res.completed) {
    fmt::print(stderr, "kinevo simulate: {}\n", res.message);
    if (!a.out.empty()) fmt::print(stderr, "kinevo simulate: wrote {} {}\n", a.out, up_to);
    if (res.stop == mechanics::simulation_stop::not_converged)
      fmt::print(stderr, "kinevo simulate: --allow-unconverged goes on past unconverged solves\n");
  } else if (res.unconverged_solves > 0) {
    fmt::print(stderr,
               "kinevo simulate: warning: {} of {} solves did not converge (first at t = {:.6g}: "
               "{})\n",
               res.unconverged_solves, res.solves, res.first_unconverged_t,
               res.first_unconverged_message);
  }
  if (res.least_squares_solves > 0) {
    fmt::print(stderr,
               "kinevo simulate: warning: {} of {} solves are least-squares compromises "
               "(inconsistent constraints)\n",
               res.least_squares_solves, res.solves);
  }
  if (!a.plot.empty()) {
    io::chart_options co;
    co.title = fmt::format("{} ({})", m.name().empty() ? a.file : m.name(), a.solver);
    co.x_label = "t [s]";
    co.y_label = plotted.size() == 1 ? plotted[0] : "value";
    io::save_line_chart(a.plot, series, co);
  }
  const double drift = std::isfinite(res.initial_energy) && res.initial_energy != 0.0
                           ? (res.final_energy - res.initial_energy) / std::abs(res.initial_energy)
                           : std::numeric_limits<double>::quiet_NaN();
  if (a.json) {
    nlohmann::json j;
    j["model"] = m.name();
    j["file"] = a.file;
    j["solver"] = a.solver;
    j["integrator"] = a.integrator;
    j["stabilization"] = a.stabilization;
    j["completed"] = res.completed;
    j["message"] = res.message;
    j["stop_reason"] =
        res.completed ? nlohmann::json(nullptr) : nlohmann::json(mechanics::stop_name(res.stop));
    j["steps"] = res.steps;
    j["last_t"] = finite_or_null(last_row_t);
    j["rows"] = rows;
    j["solves"] = res.solves;
    j["unconverged_solves"] = res.unconverged_solves;
    j["first_unconverged_t"] = finite_or_null(res.first_unconverged_t);
    j["first_unconverged_message"] = res.unconverged_solves > 0
                                         ? nlohmann::json(res.first_unconverged_message)
                                         : nlohmann::json(nullptr);
    j["allow_unconverged"] = a.allow_unconverged;
    j["least_squares_solves"] = res.least_squares_solves;
    j["rejected_steps"] = res.rejected_steps;
    j["max_position_violation"] = res.max_position_violation;
    j["max_velocity_violation"] = res.max_velocity_violation;
    j["energy"] = m.has_energy() ? nlohmann::json{{"initial", finite_or_null(res.initial_energy)},
                                                  {"final", finite_or_null(res.final_energy)},
                                                  {"relative_drift", finite_or_null(drift)}}
                                 : nlohmann::json(nullptr);
    j["check"] =
        with_ref ? nlohmann::json{{"solver", a.check},
                                  {"max_difference", finite_or_null(res.max_reference_difference)}}
                 : nlohmann::json(nullptr);
    j["solver_evaluations"] = res.solver_evaluations;
    j["out"] = a.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.out);
    j["plot"] = a.plot.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.plot);
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}: {} steps with {} ({}, {}){}\n", a.file, res.steps, a.solver, a.integrator,
               a.stabilization, res.completed ? "" : " -- stopped early");
    if (!res.message.empty()) fmt::print("  {}\n", res.message);
    fmt::print("  max |Phi| = {:.3g}, max velocity violation = {:.3g}\n",
               res.max_position_violation, res.max_velocity_violation);
    if (m.has_energy()) {
      fmt::print("  energy {:.10g} -> {:.10g} (relative drift {:.3g})\n", res.initial_energy,
                 res.final_energy, drift);
    }
    if (with_ref) fmt::print("  max |a - a_{}| = {:.3g}\n", a.check, res.max_reference_difference);
    if (res.solver_evaluations > 0)
      fmt::print("  solver evaluations: {}\n", res.solver_evaluations);
    if (res.unconverged_solves > 0) {
      fmt::print("  UNCONVERGED solves: {} of {} (first at t = {:.6g}){}\n", res.unconverged_solves,
                 res.solves, res.first_unconverged_t,
                 res.completed ? ", allowed by --allow-unconverged" : "");
    }
    if (res.least_squares_solves > 0) {
      fmt::print("  least-squares solves (inconsistent constraints): {} of {}\n",
                 res.least_squares_solves, res.solves);
    }
    if (!a.out.empty()) fmt::print("  wrote {}{}\n", a.out, res.completed ? "" : " " + up_to);
    if (!a.plot.empty()) fmt::print("  wrote {}\n", a.plot);
  }
  return res.completed ? exit_ok : exit_failure;
}

const command_registration simulate_registration(
    10, "simulate", "Forward dynamics of a model file (RK4 or Dormand-Prince, any solver)",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<simulate_args>();
      sub.add_option("model", a->file, "Model file (TOML)")->required();
      sub.add_option("--solver", a->solver, "Acceleration solver: gigsp, lm, uk, sl, kv (or ga)")
          ->capture_default_str();
      sub.add_option(
          "--check", a->check,
          "Reference solver solved at the same state every step; records the difference");
      sub.add_option("--integrator", a->integrator,
                     "rk4 (fixed step) or dopri (Dormand-Prince 5(4))")
          ->capture_default_str();
      sub.add_option("--t-end", a->sim.t_end, "End time in s")->capture_default_str();
      sub.add_option("--dt", a->sim.dt, "RK4 step / output interval in s")->capture_default_str();
      sub.add_option("--rtol", a->sim.rtol, "Dormand-Prince relative tolerance")
          ->capture_default_str();
      sub.add_option("--atol", a->sim.atol, "Dormand-Prince absolute tolerance")
          ->capture_default_str();
      sub.add_option("--stabilization", a->stabilization, "none, baumgarte or projection")
          ->capture_default_str();
      sub.add_option("--alpha", a->sim.baumgarte_alpha, "Baumgarte alpha (1/s)")
          ->capture_default_str();
      sub.add_option("--beta", a->sim.baumgarte_beta, "Baumgarte beta (1/s)")
          ->capture_default_str();
      sub.add_option("--gamma", a->sim.baumgarte_gamma, "Baumgarte gamma, nonholonomic rows (1/s)")
          ->capture_default_str();
      sub.add_option("--record-every", a->sim.record_every, "Write every k-th step to the CSV")
          ->capture_default_str();
      sub.add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      sub.add_flag("--kinematic", a->kinematic, "Kinematic mode: M = I, drivers as constraints");
      sub.add_flag("--allow-unconverged", a->allow_unconverged,
                   "Go on past solves that did not converge (iterative solvers such as ga): they "
                   "are counted, warned about and flagged in the CSV, and the exit status is 0. "
                   "Without it the run stops there with exit status 1");
      sub.add_option("--out", a->out,
                     "CSV of t, q, q', q'', violations, energy, constraint forces");
      sub.add_option("--plot", a->plot, "SVG plot of the chosen columns against t");
      sub.add_option("--plot-columns", a->plot_columns,
                     "CSV columns to plot (default: coordinates)")
          ->delimiter(',');
      sub.add_option("--islands", a->solver_options.islands, "GA solver: islands")
          ->capture_default_str();
      sub.add_option("--threads", a->solver_options.threads,
                     "GA solver: worker threads per process (0: one per island, at most the cores)")
          ->check(CLI::NonNegativeNumber);
      add_seed_option(sub, "--seed", a->solver_options.seed, "GA solver: seed");
      sub.add_option("--preset", a->solver_options.preset, "GA solver: preset")
          ->capture_default_str();
      sub.add_option("--tolerance", a->solver_options.tolerance,
                     "Iterative solvers: stopping tolerance")
          ->capture_default_str();
      sub.add_option("--rank-tolerance", a->solver_options.rank_tolerance,
                     "Direct solvers: relative rank tolerance")
          ->capture_default_str();
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("--quiet", a->quiet, "No progress line, no text output");
      sub.footer(
          "Exit status:\n"
          "  0  the run reached --t-end (with --allow-unconverged also past unconverged solves)\n"
          "  1  it stopped early: a solve that did not converge, a refused system, a NaN or\n"
          "     infinite acceleration or state, a step-size underflow; stderr says where and\n"
          "     why, the CSV keeps the rows before the stop\n"
          "  2  bad input (the message names the file, line and field)");
      return [a]() { return run_simulate(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
