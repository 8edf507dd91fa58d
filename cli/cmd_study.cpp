// kinevo study double-pendulum: the Gauss'-principle GA study of the generalized-inverse
// dissertation (GIGSP), sec. 5.4. Parses options and calls studies::run_double_pendulum_study;
// every number comes from there.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/run_context.hpp"
#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/interrupt.hpp"
#include "kinevo/io/progress.hpp"
#include "kinevo/studies/double_pendulum_study.hpp"

namespace kinevo::cli {

namespace {

struct study_args {
  studies::double_pendulum_study_options options;
  std::string out = "study-double-pendulum";
  // Test hook: raise the interrupt flag after this many progress updates (0: never), so that
  // the interrupted path is tested without timing a signal.
  long long interrupt_after = 0;
  bool json = false;
  bool quiet = false;
};

int run_double_pendulum(study_args& a) {
  validate_options(a.options);
  if (a.interrupt_after < 0) throw io::input_error("--interrupt-after must be >= 0");
  const bool root = ga::mpi_environment::rank() == 0;
  a.options.out = a.out;
  // Before the run: an unusable folder is bad input (exit 2), not a failure after minutes.
  if (root) {
    try {
      io::check_output_folder(a.options.out);
    } catch (const io::output_error& e) {
      throw io::input_error(fmt::format("--out: {}", e.what()));
    }
  }
  io::progress_line progress("study double-pendulum", a.quiet || a.json || !root);
  // The one interrupt mechanism of every subcommand (io/interrupt.hpp): SIGINT and SIGTERM
  // raise the flag; the run keeps what it computed and ends with exit 130. Under mpiexec the
  // ranks share each GA solve: all skip the same parts.
  core::run_context context = cli_run_context(progress, true);
  long long updates = 0;
  context.on_progress = [&progress, &a, &updates](const core::progress& p) {
    progress.update(p.fraction, p.text);
    if (a.interrupt_after > 0 && ++updates >= a.interrupt_after) io::request_interrupt();
  };
  // Bad options the run meets (io::option_error) are exit 2 in main, like bad input.
  const studies::double_pendulum_study_result r =
      studies::run_double_pendulum_study(a.options, context);
  progress.finish();
  if (!root) return r.interrupted ? exit_interrupted : exit_ok;
  if (a.json) {
    fmt::print("{}\n", r.to_json().dump());
  } else if (!a.quiet) {
    fmt::print("{}", r.full_report());
  }
  // Only the default preset can fail the study; the thesis preset's misses are expected and
  // reported in the text, report.md and the JSON.
  if (!r.summary.usable()) {
    fmt::print(stderr, "kinevo study double-pendulum: {}\n", r.summary.message);
  }
  return core::exit_status(r.summary);
}

const command_registration study_registration(
    60, "study", "Reproduce the studies of the source documents (double-pendulum)",
    [](CLI::App& sub) -> std::function<int()> {
      sub.require_subcommand(1);
      auto a = std::make_shared<study_args>();
      CLI::App* dp = sub.add_subcommand(
          "double-pendulum",
          "Gauss' principle by the island GA: Table 5.1 at t = 0 (thesis and default presets), "
          "convergence figures, and the motion with the GA solver beside GIGSP");
      // A folder of outputs is -o/--output-dir in every command (docs/cli.md); --out, its first
      // name here, stays for existing scripts.
      dp->add_option("-o,--output-dir", a->out, "Output folder")->capture_default_str();
      dp->add_option("--out", a->out, "Same as --output-dir (older name, kept)");
      dp->add_option("--preset", a->options.preset,
                     "GA preset of the error target and the motion: default or thesis")
          ->capture_default_str();
      dp->add_option("--islands", a->options.islands,
                     "GA islands (threads, or spread over MPI ranks under mpiexec)")
          ->capture_default_str();
      add_seed_option(*dp, "--seed", a->options.seed, "Master seed of the GA");
      dp->add_option("--t-end", a->options.t_end, "Simulated time in s (0: t = 0 only)")
          ->capture_default_str();
      dp->add_option("--dt", a->options.dt, "RK4 step in s")->capture_default_str();
      // Hidden: for the tests of the interrupted path.
      dp->add_option("--interrupt-after", a->interrupt_after)->group("");
      dp->add_flag("--json", a->json, "Print one JSON object on stdout");
      dp->add_flag("-q,--quiet", a->quiet, "No progress line, no text output");
      dp->footer(
          "Exit status:\n"
          "  0    the default preset meets its targets: t = 0 relative error <= 1e-9 against the\n"
          "       exact (0, -pi^2, 0, -2 pi^2) and, when the motion runs with it, motion within\n"
          "       1e-8 m of GIGSP, every solve converged, no divergence\n"
          "  1    it does not (stderr, the summary, report.md and the JSON say why); the thesis\n"
          "       preset missing or diverging is expected and reported, never a failure\n"
          "  2    bad options or an unusable output folder (the folder is created, its parents\n"
          "       must exist)\n"
          "  130  interrupted (SIGINT, SIGTERM): the finished parts are written, report.md and\n"
          "       the summary name the missing ones");
      return [a, dp]() -> int {
        if (dp->parsed()) return run_double_pendulum(*a);
        return exit_bad_input;
      };
    });

}  // namespace

}  // namespace kinevo::cli
