// kinevo accel: accelerations, constraint forces and diagnostics at one state from every
// solver side by side, with their differences from the first solver that succeeded.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "ga/mpi_environment.hpp"
#include "io/csv_table.hpp"
#include "mechanics/model.hpp"
#include "mechanics/solver_factory.hpp"

namespace kinevo::cli {

namespace {

struct accel_args {
  std::string file;
  double t = 0.0;
  std::vector<std::string> sets;
  std::vector<std::string> solvers;
  bool kinematic = false;
  mechanics::solver_options solver;
  bool json = false;
  bool quiet = false;
};

using mechanics::status_name;

std::vector<std::string> names_of(const mechanics::model& m, const std::vector<int>& rows) {
  std::vector<std::string> out;
  for (int r : rows) out.push_back(m.constraint_names()[static_cast<std::size_t>(r)]);
  return out;
}

std::vector<double> to_vector(const Eigen::VectorXd& v) {
  return {v.data(), v.data() + v.size()};
}

int run_accel(const accel_args& a) {
  // --t is the command's own; the solver options are the library's.
  try {
    io::require_real("--t", a.t, io::any_finite());
  } catch (const io::option_error& e) {
    throw io::input_error(e.what());
  }
  validate_options(a.solver);
  mechanics::model_options mo;
  mo.kinematic = a.kinematic;
  for (const auto& s : a.sets) mo.overrides.push_back(mechanics::parse_parameter_override(s));
  const mechanics::model m = mechanics::load_model(a.file, mo);
  const std::vector<std::string> names =
      a.solvers.empty() ? mechanics::direct_solver_names() : a.solvers;
  // The state: initial positions and velocities, at time t.
  const mechanics::constrained_system sys =
      m.evaluate(m.initial_positions(), m.initial_velocities(), a.t);
  struct row {
    std::string name;
    mechanics::acceleration_result r;
    double seconds = 0.0;  // wall time of the solve alone (not of building the solver)
  };
  std::vector<row> rows;
  for (const auto& n : names) {
    auto solver = mechanics::make_solver(n, a.solver);
    const auto t0 = std::chrono::steady_clock::now();
    mechanics::acceleration_result r = solver->solve(sys);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    rows.push_back({n, std::move(r), took.count()});
  }
  auto finite = [](const row& r) {
    return r.r.acceleration.allFinite() && r.r.constraint_force.allFinite();
  };
  const auto reference = std::find_if(rows.begin(), rows.end(), [&](const row& r) {
    return r.r.status == mechanics::solve_status::ok && r.r.acceleration.size() > 0 && finite(r);
  });
  bool inconsistent = false;
  for (const auto& r : rows) inconsistent = inconsistent || !r.r.inconsistent.empty();
  // Failures of a solver, as opposed to diagnoses of the model (least squares, singular,
  // redundant rows): an iterative solver that stopped short, or a NaN or infinite result.
  std::vector<std::string> failed;
  // Under mpiexec every rank solves (the GA's islands span the ranks); rank 0 reports.
  const bool root = ga::mpi_environment::rank() == 0;
  for (const auto& r : rows) {
    if (r.r.status == mechanics::solve_status::not_converged) {
      failed.push_back(r.name);
      if (root) fmt::print(stderr, "kinevo accel: the {} solver did not converge{}\n", r.name,
                 r.r.message.empty() ? "" : ": " + r.r.message);
    } else if (!finite(r)) {
      failed.push_back(r.name);
      if (root) fmt::print(stderr, "kinevo accel: the {} solver gave a non-finite (NaN or infinite) result\n",
                 r.name);
    }
  }
  const auto bad_inputs = mechanics::non_finite_entries(m, sys);
  if (!bad_inputs.empty() && root) {
    fmt::print(stderr, "kinevo accel: {} at t = {:g}: NaN or infinite {}\n", a.file, a.t,
               fmt::join(bad_inputs, ", "));
  }

  nlohmann::json j;
  j["model"] = m.name();
  j["file"] = a.file;
  j["t"] = a.t;
  j["coordinates"] = m.coordinate_names();
  j["constraints"] = m.constraint_names();
  j["reference"] =
      reference == rows.end() ? nlohmann::json(nullptr) : nlohmann::json(reference->name);
  j["solvers"] = nlohmann::json::object();
  for (const auto& r : rows) {
    nlohmann::json s;
    s["status"] = status_name(r.r.status);
    s["a"] = to_vector(r.r.acceleration);
    s["constraint_force"] = to_vector(r.r.constraint_force);
    s["rank"] = r.r.rank;
    s["redundant"] = names_of(m, r.r.redundant);
    s["inconsistent"] = names_of(m, r.r.inconsistent);
    s["message"] = r.r.message;
    s["finite"] = finite(r);
    s["seconds"] = r.seconds;
    s["evaluations"] = r.r.evaluations;  // iterative solvers (ga); 0 for the direct ones
    s["runs"] = r.r.runs;
    if (reference != rows.end() && r.r.acceleration.size() > 0) {
      s["max_difference"] = (r.r.acceleration - reference->r.acceleration).cwiseAbs().maxCoeff();
    } else {
      s["max_difference"] = nullptr;
    }
    j["solvers"][r.name] = s;
  }
  j["inconsistent"] = inconsistent;
  j["failed"] = failed;
  j["non_finite_inputs"] = bad_inputs;
  const int code = inconsistent || !failed.empty() ? exit_failure : exit_ok;
  if (!root) return code;
  if (a.json) {
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{} at t = {:g}: {} coordinates, {} constraints\n", a.file, a.t, m.coordinates(),
               m.constraints());
    fmt::print("{:<16}", "acceleration");
    for (const auto& r : rows) fmt::print(" {:>18}", r.name);
    fmt::print("\n");
    for (int i = 0; i < m.coordinates(); ++i) {
      fmt::print("{:<16}", m.coordinate_names()[static_cast<std::size_t>(i)]);
      for (const auto& r : rows) {
        if (r.r.acceleration.size() > 0)
          fmt::print(" {:>18.10g}", r.r.acceleration[i]);
        else
          fmt::print(" {:>18}", "-");
      }
      fmt::print("\n");
    }
    for (const auto& r : rows) {
      fmt::print("{:<6} {:<13} rank {}", r.name, finite(r) ? status_name(r.r.status) : "non_finite",
                 r.r.rank);
      if (reference != rows.end() && r.r.acceleration.size() > 0) {
        fmt::print("  max |a - a_{}| = {:.3g}", reference->name,
                   (r.r.acceleration - reference->r.acceleration).cwiseAbs().maxCoeff());
      }
      if (!r.r.redundant.empty()) {
        std::string s;
        for (const auto& n : names_of(m, r.r.redundant)) s += " " + n;
        fmt::print("  redundant:{}", s);
      }
      fmt::print("\n");
      if (!r.r.message.empty()) fmt::print("       {}\n", r.r.message);
    }
  }
  return code;
}

const command_registration accel_registration(
    20, "accel", "Constrained accelerations at one state from every solver, side by side",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<accel_args>();
      sub.add_option("model", a->file, "Model file (TOML)")->required();
      sub.add_option("--t", a->t,
                     "Time of the state (positions and velocities are the model's initial ones)")
          ->capture_default_str();
      sub.add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      sub.add_option("--solvers", a->solvers, "Solvers to compare (default: lm uk gigsp sl kv)");
      sub.add_flag("--kinematic", a->kinematic, "Kinematic mode: M = I, drivers as constraints");
      sub.add_option("--rank-tolerance", a->solver.rank_tolerance, "Relative rank tolerance")
          ->capture_default_str();
      sub.add_option("--islands", a->solver.islands, "GA solver: islands")->capture_default_str();
      sub.add_option("--threads", a->solver.threads,
                     "GA solver: worker threads per process (0: one per island, at most the cores)")
          ->check(CLI::NonNegativeNumber);
      add_seed_option(sub, "--seed", a->solver.seed, "GA solver: seed");
      sub.add_option("--preset", a->solver.preset, "GA solver: preset")->capture_default_str();
      sub.add_option("--tolerance", a->solver.tolerance, "Iterative solvers: stopping tolerance")
          ->capture_default_str();
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("--quiet", a->quiet, "No text output");
      sub.footer(
          "Exit status:\n"
          "  0  every solver returned a finite result: the constrained acceleration, or a\n"
          "     diagnosis of the model (least_squares, singular, redundant rows)\n"
          "  1  the constraints are inconsistent, or a solver did not converge (not_converged,\n"
          "     e.g. ga) or gave a NaN or infinite result: stderr names the solver; the JSON\n"
          "     still reports every solver's status, and \"failed\" lists them\n"
          "  2  bad input (the message names the file, line and field)");
      return [a]() { return run_accel(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
