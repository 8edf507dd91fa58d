// kinevo accel: accelerations, constraint forces and diagnostics at one state from every
// solver side by side, with their differences from the first solver that succeeded. Parses
// options, calls mechanics::compare_solvers, prints its report.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinevo/cli/assembly_step.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/solver_options.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/mechanics/dynamics/solver_comparison.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::cli {

namespace {

struct accel_args {
  std::string file;
  std::vector<std::string> sets;
  bool kinematic = false;
  bool assemble = false;
  mechanics::solver_comparison_options comparison;  // --t, --solvers and the solver options
  bool json = false;
  bool quiet = false;
};

// The options, named as on the command line: --t is the comparison's `t`; the solver options
// keep their names.
void validate_accel_options(const accel_args& a) {
  validate_options(a.comparison.solver);
  validate_options(a.comparison);
}

mechanics::solver_comparison compare(const mechanics::model& m, const accel_args& a) {
  try {
    return mechanics::compare_solvers(m, a.comparison);
  } catch (const io::option_error& e) {
    throw solver_input_error(e, a.comparison.solver, "--solvers");
  }
}

// Solver failures and non-finite inputs go to stderr whatever --json or --quiet say.
void report_failures(const accel_args& a, const mechanics::solver_comparison& c) {
  for (const auto& s : c.answers) {
    if (s.result.status == mechanics::solve_status::not_converged) {
      fmt::print(stderr, "kinevo accel: the {} solver did not converge{}\n", s.name,
                 s.result.message.empty() ? "" : ": " + s.result.message);
    } else if (s.result.status == mechanics::solve_status::non_finite) {
      fmt::print(stderr, "kinevo accel: the {} solver refused the system: {}\n", s.name,
                 s.result.message);
    } else if (!s.finite()) {
      fmt::print(stderr, "kinevo accel: the {} solver gave a non-finite (NaN or infinite) result\n",
                 s.name);
    }
  }
  for (const auto& s : c.answers) {
    if (s.result.inconsistent.empty()) continue;
    std::vector<std::string> rows;
    for (const int r : s.result.inconsistent)
      rows.push_back(c.constraints[static_cast<std::size_t>(r)]);
    fmt::print(stderr, "kinevo accel: the {} solver found the constraints inconsistent: {}\n",
               s.name, fmt::join(rows, ", "));
  }
  if (!c.non_finite_inputs.empty()) {
    fmt::print(stderr, "kinevo accel: {} at t = {:g}: NaN or infinite {}\n", a.file, c.t,
               fmt::join(c.non_finite_inputs, ", "));
  }
}

int run_accel(const accel_args& a) {
  validate_accel_options(a);
  // Under mpiexec every rank solves (the GA's islands span the ranks); rank 0 reports.
  const bool root = ga::mpi_environment::rank() == 0;
  const run_model loaded = load_for_run({.file = a.file,
                                         .sets = a.sets,
                                         .kinematic = a.kinematic,
                                         .assemble = a.assemble,
                                         .t = a.comparison.t,
                                         .command = "accel",
                                         .quiet = a.quiet,
                                         .json = a.json,
                                         .root = root});
  if (!loaded.model) return core::exit_status(loaded.assembly->summary());
  const mechanics::model& m = *loaded.model;
  const mechanics::solver_comparison c = compare(m, a);
  const int code = core::exit_status(c.summary);
  if (!root) return code;
  report_failures(a, c);
  if (a.json) {
    nlohmann::json j = c.to_json();
    j["file"] = a.file;
    if (loaded.assembly) j["assembly"] = loaded.assembly->to_json();
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{} at t = {:g}: {} coordinates, {} constraints\n", a.file, c.t, m.coordinates(),
               m.constraints());
    fmt::print("{}", c.full_report());
  }
  return code;
}

const command_registration accel_registration(
    20, "accel", "Constrained accelerations at one state from every solver, side by side",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<accel_args>();
      sub.add_option("model", a->file, "Model file (TOML)")->required();
      sub.add_option("--t", a->comparison.t,
                     "Time of the state (positions and velocities are the model's initial ones)")
          ->capture_default_str();
      sub.add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      sub.add_option("--solvers", a->comparison.solvers,
                     "Solvers to compare (default: lm uk gigsp sl kv)");
      sub.add_flag("--kinematic", a->kinematic, "Kinematic mode: M = I, drivers as constraints");
      sub.add_flag("--assemble", a->assemble,
                   "Assemble the initial state at --t first (Haug 4.3; the file's values are the "
                   "estimate)");
      add_solver_options(sub, a->comparison.solver);
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("-q,--quiet", a->quiet, "No text output");
      sub.footer(
          "Exit status:\n"
          "  0  every solver returned a finite result: the constrained acceleration, or a\n"
          "     diagnosis of the model (least_squares, singular, redundant rows)\n"
          "  1  --assemble failed (stderr names the most violated constraints), or\n"
          "     the constraints are inconsistent, or a solver did not converge (not_converged,\n"
          "     e.g. ga) or gave a NaN or infinite result: stderr names the solver; the JSON\n"
          "     still reports every solver's status, and \"failed\" lists them\n"
          "  2  bad input (the message names the file, line and field)");
      return [a]() { return run_accel(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
