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
#include "kinevo/cli/simulate_options.hpp"
#include "kinevo/cli/solver_options.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/interrupt.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
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

void report_stderr(const simulate_args& a, const mechanics::simulation_result& res,
                   const std::string& up_to) {
  // Failures and unconverged solves go to stderr whatever --json or --quiet say.
  if (!res.completed) {
    fmt::print(stderr, "kinevo simulate: {}\n", res.message);
    if (!a.out.empty()) fmt::print(stderr, "kinevo simulate: wrote {} {}\n", a.out, up_to);
  }
  for (const auto& note : res.notes()) fmt::print(stderr, "kinevo simulate: {}\n", note);
}

nlohmann::json json_summary(const simulate_args& a, const mechanics::model& m,
                            const mechanics::simulation_result& res,
                            const mechanics::trajectory_recorder& c) {
  nlohmann::json j = res.to_json();
  j["model"] = m.name();
  j["file"] = a.file;
  j["stabilization"] = a.stabilization;
  if (!a.check.empty()) j["check"]["solver"] = a.check;
  j["last_t"] = std::isfinite(c.last_t()) ? nlohmann::json(c.last_t()) : nlohmann::json(nullptr);
  j["rows"] = c.rows();
  j["out"] = a.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.out);
  j["plot"] = a.plot.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.plot);
  j["animate"] = a.animate.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.animate);
  return j;
}

void print_text(const simulate_args& a, const mechanics::simulation_result& res,
                const std::string& up_to) {
  fmt::print("{}: {} steps with {} ({}, {}){}\n", a.file, res.steps, res.solver,
             res.integrator_name(),
             a.formulation == "full" ? a.stabilization : "formulation " + a.formulation,
             res.completed ? "" : " -- stopped early (" + res.status() + ")");
  // The library's full report after its first line (which the line above says for the file).
  const std::string full = res.full_report();
  const auto first_end = full.find('\n');
  if (!res.message.empty()) fmt::print("  {}\n", res.message);
  fmt::print("{}", first_end == std::string::npos ? "" : full.substr(first_end + 1));
  if (!a.out.empty()) fmt::print("  wrote {}{}\n", a.out, res.completed ? "" : " " + up_to);
  if (!a.plot.empty()) fmt::print("  wrote {}\n", a.plot);
  if (!a.animate.empty()) fmt::print("  wrote {}\n", a.animate);
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
  if (!loaded.model) return exit_failure;
  const auto drawing = prepare_animation(a.animate, a.file, loaded.options.overrides);

  const mechanics::model& m = *loaded.model;
  auto solver = make_solver_for(a.solver, a.solver_options, "--solver");
  std::unique_ptr<mechanics::acceleration_solver> reference;
  if (!a.check.empty()) reference = make_solver_for(a.check, a.solver_options, "--check");

  // The rows are streamed to the files as they are computed (rank 0 writes): memory does not
  // grow with the run's length.
  std::optional<run_row_files> row_files;
  if (root) row_files.emplace(a.out, drawing.has_value());
  mechanics::trajectory_recorder recorder = make_recorder(
      a, m, reference != nullptr, row_files ? row_files->sinks() : std::vector<std::ostream*>{});

  io::progress_line progress("simulate", a.quiet || a.json || !root);
  const double span = a.sim.t_end - a.sim.t_start;
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
    progress.update((r.t - a.sim.t_start) / span, fmt::format("t = {:.4g}", r.t));
    // On rank 0 only under mpiexec, as a signal reaching one rank first: the ranks must agree.
    if (a.interrupt_after > 0 && ++records >= a.interrupt_after &&
        ga::mpi_environment::rank() == 0) {
      io::request_interrupt();
    }
    return true;
  };
  // The one interrupt mechanism of every subcommand (io/interrupt.hpp): SIGINT and SIGTERM
  // raise the flag; the run keeps what it computed and ends with exit 130.
  io::install_interrupt_handlers();
  a.sim.interrupt = &io::interrupt_flag();
  // Under mpiexec the ranks share each GA solve: all stop at the same record or none does.
  if (ga::mpi_environment::size() > 1) a.sim.agree_interrupt = ga::mpi_environment::any_rank;
  const mechanics::simulation_result res =
      mechanics::simulate(m, *solver, a.sim, on_step, reference.get());
  progress.finish();
  if (!root) return core::exit_status(res.summary());
  // Whatever was computed is saved, also when the run stopped early: the rows before the stop
  // (a row is only written once every solve that led to it was accepted).
  row_files->commit();
  const std::string up_to = recorder.written_span();
  report_stderr(a, res, up_to);
  if (!a.plot.empty()) {
    recorder.save_plot(a.plot,
                       fmt::format("{} ({})", m.name().empty() ? a.file : m.name(), a.solver));
    if (!a.quiet && !recorder.plot_note().empty()) {
      fmt::print(stderr, "kinevo simulate: --plot {}: {}\n", a.plot, recorder.plot_note());
    }
  }
  // The page's title as the plot's: the model's name, else its file.
  if (drawing) {
    save_animation(a.animate, *drawing, *row_files, m.name().empty() ? a.file : m.name());
  }
  if (a.json) {
    nlohmann::json j = json_summary(a, m, res, recorder);
    if (loaded.assembly) j["assembly"] = loaded.assembly->to_json();
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    print_text(a, res, up_to);
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
