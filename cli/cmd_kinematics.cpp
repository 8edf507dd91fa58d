// kinevo kinematics: position (Newton-Raphson), velocity and acceleration of a driven model over
// a time grid (Haug, Computer-Aided Kinematics and Dynamics of Mechanical Systems, sec. 4.5).
// Parses options, calls mechanics::analyse_kinematics, prints its report and writes the CSV and
// SVG; every figure comes from the library (mechanics/kinematics/kinematic_analysis_result.hpp).
#include <fmt/format.h>

#include <optional>

#include <memory>
#include <nlohmann/json.hpp>

#include "kinevo/cli/assembly_step.hpp"
#include "kinevo/cli/command.hpp"
#include "kinevo/io/atomic_file.hpp"
#include "kinevo/io/interrupt.hpp"
#include "kinevo/mechanics/kinematics/kinematic_analysis.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::cli {

namespace {

struct kinematics_args {
  std::string file;
  std::vector<std::string> sets;
  std::string out, plot;
  mechanics::kinematic_analysis_options analysis;
  bool json = false;
  bool quiet = false;
  bool assemble = false;
};

int run_kinematics(kinematics_args& a) {
  validate_options(a.analysis, {{"t_start", "--t-start"}, {"t_end", "--t-end"}});
  check_output_path(a.out, "--out");
  check_output_path(a.plot, "--plot");
  const run_model loaded = load_for_run({.file = a.file,
                                         .sets = a.sets,
                                         .kinematic = false,
                                         .assemble = a.assemble,
                                         .t = a.analysis.t_start,
                                         .command = "kinematics",
                                         .quiet = a.quiet,
                                         .json = a.json,
                                         .root = true});
  if (!loaded.model) return core::exit_status(loaded.assembly->summary());

  const mechanics::model& m = *loaded.model;
  // The analysis polls the interrupt flag (io/interrupt.hpp) and reports no progress.
  core::run_context context;
  context.interrupt = &io::interrupt_flag();
  io::install_interrupt_handlers();
  const mechanics::kinematic_analysis_result r =
      mechanics::analyse_kinematics(m, a.analysis, context);
  // What was computed is written also when the analysis stopped early (atomically).
  if (!a.out.empty()) r.csv().save(a.out);
  if (!a.plot.empty()) {
    r.save_plot(a.plot,
                fmt::format("{} (kinematic analysis)", m.name().empty() ? a.file : m.name()));
  }
  if (!r.completed) {
    fmt::print(stderr, "kinevo kinematics: {}\n", r.message);
    if (!a.out.empty()) {
      fmt::print(stderr, "kinevo kinematics: wrote {} ({} rows{})\n", a.out, r.steps,
                 r.steps > 0 ? fmt::format(", up to t = {:.6g}", r.t_stop) : "");
    }
  }
  if (a.json) {
    nlohmann::json j = r.to_json();
    j["file"] = a.file;
    if (loaded.assembly) j["assembly"] = loaded.assembly->to_json();
    j["out"] = a.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.out);
    j["plot"] = a.plot.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.plot);
    fmt::print("{}\n", j.dump());
  } else if (!a.quiet) {
    fmt::print("{}: {} coordinate{}\n{}", a.file, m.coordinates(), m.coordinates() == 1 ? "" : "s",
               r.full_report());
    if (!a.out.empty()) fmt::print("  wrote {}\n", a.out);
    if (!a.plot.empty()) fmt::print("  wrote {}\n", a.plot);
  }
  return core::exit_status(r.summary);
}

const command_registration kinematics_registration(
    15, "kinematics",
    "Kinematic analysis over time: Newton-Raphson position, velocity, acceleration (Haug 4.5)",
    [](CLI::App& sub) -> std::function<int()> {
      auto a = std::make_shared<kinematics_args>();
      sub.add_option("model", a->file, "Model file (TOML), kinematically determined by drivers")
          ->required();
      sub.add_option("--t-start", a->analysis.t_start,
                     "First time (the model's initial positions are its first estimate)")
          ->capture_default_str();
      sub.add_option("--t-end", a->analysis.t_end, "Last time in s")->capture_default_str();
      sub.add_option("--dt", a->analysis.dt, "Time step of the grid in s")->capture_default_str();
      sub.add_option("--eps-e", a->analysis.newton.eps_e,
                     "Newton-Raphson: converged when max |Phi| <= eps_e ...")
          ->capture_default_str();
      sub.add_option("--eps-s", a->analysis.newton.eps_s, "... and max |dq| <= eps_s")
          ->capture_default_str();
      sub.add_option("--max-iterations", a->analysis.newton.max_iterations,
                     "Newton-Raphson iterations per time before it fails")
          ->capture_default_str();
      sub.add_option("--rank-tolerance", a->analysis.newton.rank_tolerance,
                     "Relative pivot threshold of the LU of Phi_q")
          ->capture_default_str();
      sub.add_option("--set", a->sets, "Override a parameter: name=value (repeatable)");
      sub.add_option("--out", a->out,
                     "CSV of t, q, q', q'', iterations, max |Phi|, LU pivot ratio, convergence");
      sub.add_option("--plot", a->plot, "SVG plot of the coordinates against t");
      sub.add_flag("--assemble", a->assemble,
                   "Assemble the initial estimate onto the constraints first (Haug 4.3)");
      sub.add_flag("--json", a->json, "Print one JSON object on stdout");
      sub.add_flag("-q,--quiet", a->quiet, "No text output");
      sub.footer(
          "Exit status:\n"
          "  0    every time of the grid analysed\n"
          "  1    --assemble failed (stderr names the most violated constraints), or\n"
          "       stopped early: no position at a time (Newton-Raphson did not converge, e.g.\n"
          "       past a lock-up), a singular root or a rank-deficient Phi_q, a NaN; stderr says\n"
          "       when and why, the CSV keeps the rows computed\n"
          "  2    bad input: options, the model file, a model that is not kinematically\n"
          "       determined (drivers missing or too many), an unusable output path\n"
          "  130  interrupted (SIGINT, SIGTERM): the CSV and plot keep the rows computed");
      return [a]() { return run_kinematics(*a); };
    });

}  // namespace

}  // namespace kinevo::cli
