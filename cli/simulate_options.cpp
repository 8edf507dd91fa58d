#include "kinevo/cli/simulate_options.hpp"

#include <fmt/format.h>

#include <exception>

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/motion_page.hpp"
#include "kinevo/cli/solver_options.hpp"
#include "kinevo/mechanics/dynamics/trajectory_motion.hpp"

namespace kinevo::cli {

void add_simulate_options(CLI::App& sub, const std::shared_ptr<simulate_args>& a) {
  sub.add_option("model", a->file, "Model file (TOML)")->required();
  sub.add_option("--solver", a->solver,
                 "Acceleration solver: gigsp, lm, uk, sl, kv, qtz, projection (or ga)")
      ->capture_default_str()
      ->each([a](const std::string&) { a->solver_given = true; });
  sub.add_option("--formulation", a->formulation,
                 "full, partitioning, projection, hybrid, qtz-reduced, qtz-orthogonal, "
                 "qtz-state or reuse (docs/formulations.md)")
      ->capture_default_str();
  sub.add_option("--exact-every", a->sim.formulation.reuse_exact_every,
                 "--formulation reuse: an exact generalized inverse every k steps")
      ->capture_default_str();
  sub.add_option("--check", a->check,
                 "Reference solver solved at the same state every step; records the difference");
  sub.add_option("--integrator", a->integrator, "rk4 (fixed step) or dopri (Dormand-Prince 5(4))")
      ->capture_default_str()
      ->each([a](const std::string&) { a->integrator_given = true; });
  sub.add_option("--t-end", a->sim.t_end, "End time in s")->capture_default_str();
  sub.add_option("--dt", a->sim.dt, "RK4 step / output interval in s")->capture_default_str();
  sub.add_option("--rtol", a->sim.rtol, "Dormand-Prince relative tolerance")->capture_default_str();
  sub.add_option("--atol", a->sim.atol, "Dormand-Prince absolute tolerance")->capture_default_str();
  sub.add_option("--dt-min", a->sim.dt_min,
                 "Dormand-Prince gives up below this step (s; docs/formulations.md)")
      ->capture_default_str();
  sub.add_option("--stabilization", a->stabilization, "none, baumgarte or projection")
      ->capture_default_str()
      ->each([a](const std::string&) { a->stabilization_given = true; });
  sub.add_option("--alpha", a->sim.baumgarte_alpha, "Baumgarte alpha (1/s)")->capture_default_str();
  sub.add_option("--beta", a->sim.baumgarte_beta, "Baumgarte beta (1/s)")->capture_default_str();
  sub.add_option("--gamma", a->sim.baumgarte_gamma, "Baumgarte gamma, nonholonomic rows (1/s)")
      ->capture_default_str();
  sub.add_option("--record-every", a->sim.record_every, "Write every k-th step to the CSV")
      ->capture_default_str();
  add_divergence_options(sub, a->sim, a->no_divergence_check);
  sub.add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
  sub.add_flag("--kinematic", a->kinematic, "Kinematic mode: M = I, drivers as constraints");
  sub.add_flag("--assemble", a->assemble,
               "Assemble the initial state at t = 0, where the run starts, first (Haug 4.3; "
               "the file's values are the estimate)");
  sub.add_flag("--allow-unconverged", a->sim.allow_unconverged,
               "Go on past solves that did not converge (iterative solvers such as ga): they "
               "are counted, warned about and flagged in the CSV, and the exit status is 0. "
               "Without it the run stops there with exit status 1");
  sub.add_option("--out", a->out, "CSV of t, q, q', q'', violations, energy, constraint forces");
  sub.add_option("--plot", a->plot, "SVG plot of the chosen columns against t or --plot-x");
  sub.add_option("--plot-columns", a->plot_columns,
                 "CSV columns to plot (default: the coordinates, or the first and last "
                 "bodies' positions when there are more than 8; one panel per unit)")
      ->delimiter(',');
  sub.add_option("--plot-x", a->plot_x, "CSV column on the plot's x axis (default: t)");
  add_animation_option(sub, a->animate);
  add_solver_options(sub, a->solver_options);
  // Hidden: for the tests of the interrupted path.
  sub.add_option("--interrupt-after", a->interrupt_after)->group("");
  sub.add_flag("--json", a->json, "Print one JSON object on stdout");
  sub.add_flag("-q,--quiet", a->quiet, "No progress line, no text output");
  sub.footer(
      "Exit status:\n"
      "  0    the run reached --t-end (with --allow-unconverged also past unconverged solves)\n"
      "  1    --assemble failed (stderr names the most violated constraints), or\n"
      "       it stopped early: the motion diverged (see --divergence-growth), a solve that\n"
      "       did not converge, a refused system, a NaN or infinite acceleration or state,\n"
      "       a step-size underflow; stderr says where and why, the CSV keeps the rows\n"
      "       up to the stop\n"
      "  2    bad input or an unusable output path (the message names the file, line and\n"
      "       field, or the option and the path)\n"
      "  130  interrupted (SIGINT, SIGTERM): the CSV and plot keep the rows computed");
}

void add_divergence_options(CLI::App& sub, mechanics::simulation_options& sim,
                            bool& no_divergence_check) {
  sub.add_option("--divergence-growth", sim.divergence_growth,
                 "Diverged when max |q| or |q'| exceeds this factor of the run's scale "
                 "(docs/mechanics.md)")
      ->capture_default_str();
  sub.add_option("--divergence-violation", sim.divergence_violation,
                 "Diverged when max |Phi| exceeds this times (1 + max |q0|)^2")
      ->capture_default_str();
  sub.add_option("--divergence-energy", sim.divergence_energy,
                 "Diverged when |E - E0| exceeds this times max(1, |E0|)")
      ->capture_default_str();
  sub.add_flag("--no-divergence-check", no_divergence_check,
               "Let a diverging motion run on (the exit status is then 0 if it stays finite)");
}

void add_animation_option(CLI::App& sub, std::string& animate) {
  sub.add_option("--animate", animate,
                 "Self-contained HTML page playing the run on the model in 3D "
                 "(docs/animation.md)");
}

std::optional<mechanics::model_drawing> prepare_animation(
    const std::string& animate, const std::string& model_file,
    const std::vector<mechanics::parameter_override>& overrides) {
  if (animate.empty()) return std::nullopt;
  check_output_path(animate, "--animate");
  return mechanics::model_drawing::load(model_file, overrides);
}

run_row_files::run_row_files(const std::string& out) {
  if (!out.empty()) out_.emplace(out);
}

std::vector<std::ostream*> run_row_files::sinks() {
  std::vector<std::ostream*> out;
  if (out_) out.push_back(&out_->stream());
  return out;
}

void run_row_files::commit() {
  if (out_) out_->commit();
}

void save_animation(const std::string& animate, const mechanics::model_drawing& drawing,
                    const mechanics::recorded_trajectory& trajectory, const std::string& title) {
  try {
    trajectory.check_finite(animate);
    if (trajectory.times.empty()) return;  // nothing was recorded: no page
    write_motion_page(
        drawing, [&] { return mechanics::trajectory_motion(drawing, trajectory, animate); },
        animate, title, {}, motion_view::three_d, animate);
  } catch (const std::exception& e) {
    // A diverged run's non-finite rows: the CSV and the report still stand.
    fmt::print(stderr, "kinevo simulate: --animate {}: not written: {}\n", animate, e.what());
  }
}

}  // namespace kinevo::cli
