// The options of `kinevo simulate` kept apart from cmd_simulate.cpp (which runs and prints):
// all of them bound to simulate_args, the divergence checks and the animation of the run.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kinevo/io/atomic_file.hpp"
#include "kinevo/mechanics/dynamics/recorded_trajectory.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/dynamics/trajectory_recorder.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/model/model_drawing.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::cli {

// The command line of `kinevo simulate`, bound by add_simulate_options.
struct simulate_args {
  std::string file;
  std::string solver = "gigsp";
  std::string check;
  std::string integrator = "rk4";
  std::string stabilization = "none";
  std::string formulation = "full";
  // Whether these were given (a formulation with its own solver or corrections refuses them).
  bool solver_given = false, stabilization_given = false, integrator_given = false;
  std::vector<std::string> sets;
  std::vector<std::string> plot_columns;
  std::string out, plot, plot_x, animate;
  bool kinematic = false;
  bool assemble = false;
  bool no_divergence_check = false;
  mechanics::simulation_options sim;
  mechanics::solver_options solver_options;
  // Test hook: raise the interrupt flag after this many records (0: never), so that the
  // interrupted path is tested without timing a signal.
  long long interrupt_after = 0;
  bool json = false;
  bool quiet = false;
};

// Every option of `kinevo simulate` and its --help footer (the exit statuses), bound to `a`.
void add_simulate_options(CLI::App& sub, const std::shared_ptr<simulate_args>& a);

// --divergence-growth, --divergence-violation, --divergence-energy, --no-divergence-check.
void add_divergence_options(CLI::App& sub, mechanics::simulation_options& sim,
                            bool& no_divergence_check);

// --animate FILE: the run as a self-contained HTML page (docs/animation.md).
void add_animation_option(CLI::App& sub, std::string& animate);

// Before the run: the output path and the model's drawing (a bad geometry is bad input, exit
// 2, without costing the run). nullopt when --animate was not given.
std::optional<mechanics::model_drawing> prepare_animation(
    const std::string& animate, const std::string& model_file,
    const std::vector<mechanics::parameter_override>& overrides);

// Where a run's CSV rows go as they are computed, so that memory does not grow with the run's
// length: --out through a temporary file beside it, renamed into place by commit() (a run that
// ends by an exception leaves no half file). Only the rank that writes (rank 0) opens it.
class run_row_files {
 public:
  // Throws io::output_error naming --out's path when it cannot be opened.
  explicit run_row_files(const std::string& out);

  std::vector<std::ostream*> sinks();
  // Renames --out's temporary into place (the rows computed, also after an early stop).
  void commit();

 private:
  std::optional<io::atomic_output_stream> out_;
};

// After the run: the trajectory the recorder kept (the rows computed, also when the run stopped
// early) as a page; no page when no row was recorded, a message on stderr (and no page) when a
// row is not finite or the page cannot be written.
void save_animation(const std::string& animate, const mechanics::model_drawing& drawing,
                    const mechanics::recorded_trajectory& trajectory, const std::string& title);

}  // namespace kinevo::cli
