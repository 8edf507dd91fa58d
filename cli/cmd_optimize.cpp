// kinevo optimize: the island-model GA on a built-in test function or a problem file. Binds the
// options to optimization::optimize_options (the command line and the config file alike), calls
// optimization::run_optimization, prints its report and notes and has it write its files. The
// numerical work, the checks and the reports live in optimization/ and ga/.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/optimize_cli_options.hpp"
#include "kinevo/cli/optimize_sanlsu.hpp"
#include "kinevo/cli/run_context.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/optimization/run_driver.hpp"

namespace kinevo::cli {

namespace {

optimization::optimization_run run_library(const optimize_cli& c) {
  io::progress_line progress("optimize", c.quiet || c.json);
  const core::run_context context = cli_run_context(progress, true);
  try {
    auto run = optimization::run_optimization(c.options, context);
    progress.finish();
    return run;
  } catch (const io::option_error& e) {
    throw option_input_error(e, c.origins);
  }
}

void print_results(const optimize_cli& c, const optimization::optimization_run& run) {
  if (c.print_hex) {
    fmt::print("{}", run.exact_report());  // the threads-versus-MPI tests (hidden option)
  } else if (c.json) {
    fmt::print("{}\n", run.to_json().dump());
  } else if (!c.quiet) {
    fmt::print("{}", run.full_report());
  }
}

int run_optimize(optimize_cli& c, CLI::App& sub) {
  if (!c.config.empty()) apply_config(sub, c.config, "optimize", c.origins);
  c.options.given = given_keys(sub);
  c.options.record_history = c.files.need_history();
  if (c.options.solver == optimization::method::sanlsu) {
    return run_sanlsu_method(c.options, {c.json, c.quiet}, c.origins);
  }
  auto run = run_library(c);
  if (!run.root) return run.interrupted() ? exit_interrupted : exit_ok;
  run.save_files(c.files);
  if (c.options.refine_sanlsu && !run.interrupted()) {
    return refine_and_print(c.options, std::move(run), {c.json, c.quiet}, c.origins);
  }
  print_results(c, run);
  if (const auto note = run.outcome_note()) fmt::print(stderr, "kinevo optimize: {}\n", *note);
  return core::exit_status(run.summary);
}

const command_registration optimize_registration(
    50, "optimize",
    "Minimise a built-in test function or a problem file with the island-model GA "
    "(or SANLSU gradient projection)",
    [](CLI::App& sub) -> std::function<int()> {
      auto c = std::make_shared<optimize_cli>();
      add_optimize_options(sub, *c);
      return [c, &sub] { return run_optimize(*c, sub); };
    });

}  // namespace

}  // namespace kinevo::cli
