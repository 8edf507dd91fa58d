// kinevo simulate: forward dynamics of a model file with a chosen acceleration solver,
// integrator and constraint-violation control; CSV of every state, SVG plot, JSON summary.
// Parses options, calls mechanics::simulate, prints the result's report and writes files;
// every figure comes from the library (mechanics/dynamics/simulation_result.hpp).
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "kinevo/cli/assembly_step.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/cli/run_context.hpp"
#include "kinevo/cli/simulate_options.hpp"
#include "kinevo/cli/solver_options.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/interrupt.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/simulation_report.hpp"
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::cli {

namespace {

// The options, checked before anything runs: exit 2 naming the command-line option.
void prepare_options(simulate_args& a) {
  try {
    a.sim.integrator = mechanics::parse_integrator(a.integrator);
    a.sim.stabilization = mechanics::parse_stabilization(a.stabilization);
    a.sim.formulation.kind = mechanics::parse_formulation(a.formulation);
  } catch (const io::option_error& e) {
    throw io::input_error(fmt::format("--{} {}", e.field(), e.requirement()));
  }
  const auto kind = a.sim.formulation.kind;
  const std::string conflict = mechanics::formulation_conflict(
      kind, a.solver_given, a.stabilization_given, a.integrator_given);
  if (!conflict.empty()) throw io::input_error(conflict);
  if (!a.stabilization_given) {
    a.sim.stabilization = mechanics::default_stabilization(kind);
    a.stabilization = mechanics::to_string(a.sim.stabilization);
  }
  a.sim.check_divergence = !a.no_divergence_check;
  validate_options(a.sim, {{"baumgarte_alpha", "--alpha"},
                           {"baumgarte_beta", "--beta"},
                           {"baumgarte_gamma", "--gamma"},
                           {"reuse_exact_every", "--exact-every"}});
  validate_options(a.solver_options);
  if (a.interrupt_after < 0) throw io::input_error("--interrupt-after must be >= 0");
  // Before the run, so that an unusable output path does not cost the run (and no folder is
  // created that the user did not ask for).
  check_output_path(a.out, "--out");
  check_output_path(a.plot, "--plot");
}

// The rows and plotted series the run keeps; an unknown column name is bad input.
mechanics::trajectory_recorder make_recorder(const simulate_args& a, const mechanics::model& m,
                                             bool with_reference,
                                             std::vector<std::ostream*> row_sinks) {
  try {
    return mechanics::trajectory_recorder(m, with_reference, a.sim.record_every, a.plot_columns,
                                          std::move(row_sinks), a.plot_x);
  } catch (const io::option_error& e) {
    const char* option = e.field() == "plot_x" ? "--plot-x" : "--plot-columns";
    throw io::input_error(fmt::format("{} {}", option, e.requirement()));
  }
}

// What the run read and wrote, for the library's reports.
mechanics::simulation_run_files run_files(const simulate_args& a, const mechanics::model& m,
                                          const mechanics::trajectory_recorder& c) {
  return {.file = a.file,
          .model_name = m.name(),
          .check = a.check,
          .out = a.out,
          .plot = a.plot,
          .animate = a.animate,
          .rows = c.rows(),
          .last_t = c.last_t(),
          .written_span = c.written_span()};
}

int run_simulate(simulate_args& a) {
  prepare_options(a);
  // Under mpiexec every rank runs the simulation (the GA solver's islands span the ranks);
  // rank 0 alone prints and writes.
  const bool root = ga::mpi_environment::rank() == 0;
  const run_model loaded = load_for_run({.file = a.file,
                                         .sets = a.sets,
                                         .kinematic = a.kinematic,
                                         .assemble = a.assemble,
                                         .t = a.sim.t_start,
                                         .command = "simulate",
                                         .quiet = a.quiet,
                                         .json = a.json,
                                         .root = root});
  if (!loaded.model) return core::exit_status(loaded.assembly->summary());
  const auto drawing = prepare_animation(a.animate, a.file, loaded.options.overrides);

  const mechanics::model& m = *loaded.model;
  auto solver = make_solver_for(a.solver, a.solver_options, "--solver");
  std::unique_ptr<mechanics::acceleration_solver> reference;
  if (!a.check.empty()) reference = make_solver_for(a.check, a.solver_options, "--check");

  // The rows are streamed to the files as they are computed (rank 0 writes): memory does not
  // grow with the run's length.
  std::optional<run_row_files> row_files;
  if (root) row_files.emplace(a.out);
  mechanics::trajectory_recorder recorder = make_recorder(
      a, m, reference != nullptr, row_files ? row_files->sinks() : std::vector<std::ostream*>{});
  // The page holds every row: the animation draws the trajectory kept in memory.
  if (drawing && root) recorder.keep_trajectory();

  io::progress_line progress("simulate", a.quiet || a.json || !root);
  bool warned = false;
  long long records = 0;
  auto on_step = [&](const mechanics::step_record& r) {
    if (r.unconverged_solves > 0 && !warned && root) {
      // Only reached with --allow-unconverged: otherwise the run stops at that solve.
      warned = true;
      progress.finish();
      fmt::print(stderr,
                 "kinevo simulate: warning: a {} solve did not converge before t = {:.6g}; "
                 "going on (--allow-unconverged), the rows are flagged in unconverged_solves\n",
                 a.solver, r.t);
    }
    recorder.add(r);
    // On rank 0 only under mpiexec, as a signal reaching one rank first: the ranks must agree.
    if (a.interrupt_after > 0 && ++records >= a.interrupt_after &&
        ga::mpi_environment::rank() == 0) {
      io::request_interrupt();
    }
    return true;
  };
  // The one interrupt mechanism of every subcommand (io/interrupt.hpp): SIGINT and SIGTERM
  // raise the flag; the run keeps what it computed and ends with exit 130. Under mpiexec the
  // ranks share each GA solve: all stop at the same record or none does.
  const core::run_context context = cli_run_context(progress, true);
  const mechanics::simulation_result res =
      mechanics::simulate(m, *solver, a.sim, on_step, reference.get(), context);
  progress.finish();
  if (!root) return core::exit_status(res.summary());
  // Whatever was computed is saved, also when the run stopped early: the rows before the stop
  // (a row is only written once every solve that led to it was accepted).
  row_files->commit();
  const mechanics::simulation_run_files files = run_files(a, m, recorder);
  for (const auto& line : mechanics::simulation_error_lines(res, files)) {
    fmt::print(stderr, "kinevo simulate: {}\n", line);
  }
  if (!a.plot.empty()) {
    recorder.save_plot(a.plot,
                       fmt::format("{} ({})", m.name().empty() ? a.file : m.name(), a.solver));
    if (!a.quiet && !recorder.plot_note().empty()) {
      fmt::print(stderr, "kinevo simulate: --plot {}: {}\n", a.plot, recorder.plot_note());
    }
  }
  // The page's title as the plot's: the model's name, else its file.
  if (drawing) {
    save_animation(a.animate, *drawing, recorder.trajectory(),
                   m.name().empty() ? a.file : m.name());
  }
  if (a.json) {
    nlohmann::json j = mechanics::simulation_json_report(res, files);
    if (loaded.assembly) j["assembly"] = loaded.assembly->to_json();
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}", mechanics::simulation_text_report(res, files));
  }
  return core::exit_status(res.summary());
}

const command_registration simulate_registration(
    10, "simulate", "Forward dynamics of a model file (RK4 or Dormand-Prince, any solver)",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<simulate_args>();
      add_simulate_options(sub, a);
      return [a]() { return run_simulate(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
