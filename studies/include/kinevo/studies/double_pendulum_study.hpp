// The double-pendulum study of the generalized-inverse dissertation (GIGSP), sec. 5.4:
// Gauss' principle solved by the GA at t = 0 (Table 5.1, Figs. 5.3-5.7) with the thesis preset
// and kinevo's default preset, then the motion with the GA solver beside GIGSP. A library
// function so that the CLI only parses options and prints.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/core/run_context.hpp"
#include "kinevo/gauss/gauss_ga_solver.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::studies {

using gauss::gauss_run_record;
using gauss::gauss_snapshot;
using mechanics::constrained_system;

// Two particles on massless rods (eqs. 5.7-5.16): q = (x1, y1, x2, y2), gravity g along +y.
// The defaults are the state of Table 5.1.
struct double_pendulum_state {
  double m1 = 1.0, m2 = 1.0, l1 = 1.0, l2 = 1.0, g = 9.8;
  double x1 = 0.0, y1 = 1.0, x2 = 0.0, y2 = 2.0;
  double vx1 = 3.14159265358979323846, vy1 = 0.0, vx2 = 2.0 * 3.14159265358979323846, vy2 = 0.0;
};

// M, f, A, b of eqs. 5.13-5.16 with the constraints named "rod1" and "rod2".
constrained_system double_pendulum_system(const double_pendulum_state& s);
// The constrained acceleration at the Table 5.1 state, exactly (0, -pi^2, 0, -2 pi^2).
Eigen::VectorXd double_pendulum_exact_t0();

// Table 5.1 as printed (runs 0..5 and the "exact" row): x1'', y1'', x2'', y2'', Z1.
struct printed_row {
  std::string run;
  double a[4];
  double z1;
};
const std::vector<printed_row>& printed_table_5_1();

struct double_pendulum_study_options {
  std::string preset = "default";  // the preset of max_rel_error_t0 and the motion
  int islands = 2;
  std::uint64_t seed = 1;
  double t_end = 2.0;
  double dt = 1e-3;
  std::filesystem::path out = "study-double-pendulum";
  bool write_files = true;  // only the root process writes in any case
  // The GA motion counts as diverged, and stops there, when a coordinate exceeds
  // divergence_scale times the pendulum's reach (l1 + l2 = 2 m), a rod constraint
  // |Phi_i| = |x^2 + y^2 - l^2| / 2 exceeds divergence_violation (m^2; 1e-3 is about 1 mm of
  // rod length), or a value is NaN or infinite.
  double divergence_scale = 1e3;
  double divergence_violation = 1e-3;

  // Throws io::option_error (a std::invalid_argument) naming the field and its allowed range:
  // islands >= 1, t_end finite and >= 0, dt finite and > 0, the divergence limits finite and
  // > 0. run_double_pendulum_study calls it.
  void validate() const;
};

// Table 5.1 with one preset.
struct study_t0_table {
  std::string preset;
  std::vector<gauss_run_record> runs;
  std::vector<gauss_snapshot> snapshots;
  double z1_guess = 0.0, z_guess = 0.0, residual_guess = 0.0;  // at the run-1 centre (run 0)
  double max_abs_error = 0.0;  // max |a_GA - a_exact| after the last run
  double max_rel_error = 0.0;  // divided by max |a_exact|
  long long evaluations = 0;
  mechanics::solve_status solve_status = mechanics::solve_status::ok;  // of the t = 0 solve
  std::string message;                                                 // the solver's
};

struct study_motion {
  bool completed = false;
  std::string message;
  long long steps = 0;
  double max_position_difference = 0.0;                   // GA against GIGSP, same times
  double max_acceleration_difference = 0.0;               // GA against GIGSP at the GA's states
  double max_acceleration_difference_trajectories = 0.0;  // between the two runs
  long long cold_start_evaluations = 0;
  int cold_start_runs = 0;
  double evaluations_per_step_median = 0.0;   // warm steps, all RK4 stages of a step
  double evaluations_per_solve_median = 0.0;  // warm solves (one RK4 stage each)
  double runs_per_solve_median = 0.0;
  int runs_per_solve_max = 0;
  long long solves = 0;
  long long not_converged_solves = 0;
  double first_not_converged_t = std::numeric_limits<double>::quiet_NaN();
  bool interrupted = false;  // options.interrupt stopped it: the rows up to there are kept
  bool diverged = false;     // the GA motion was stopped where it diverged (see the options)
  double diverged_t = std::numeric_limits<double>::quiet_NaN();
  double seconds_ga = 0.0;
  double seconds_gigsp = 0.0;
};

// The targets of the study (the default preset must meet them; the thesis preset is not
// expected to: the dissertation's GA settings are not that accurate).
struct study_targets {
  double t0_relative_error = 1e-9;           // max |a - exact| / max |exact| at t = 0
  double motion_position_difference = 1e-8;  // m, GA motion against GIGSP's
};

// Outcome of one preset: its t = 0 solve and, when the motion ran with it, the motion. Ordered
// from best to worst; a preset takes the worst of its parts.
enum class preset_status { ok, missed_target, not_converged, diverged };
const char* to_string(preset_status s);  // "ok", "missed_target", "not_converged", "diverged"

struct preset_outcome {
  preset_status status = preset_status::ok;
  std::string reason;     // why it is not ok; empty when ok
  bool expected = false;  // the thesis preset: reported, never a failure of the study
};

// The status rule: diverged (the motion had to be stopped) before not_converged (a solve at
// t = 0 or in the motion stopped short of its tolerance) before missed_target (t = 0 error or
// motion difference above the target, or a motion that stopped for another reason) before ok.
// `motion` is null when the motion did not run with this preset; `t0` null judges the motion
// alone.
preset_outcome classify_preset(const study_t0_table* t0, const study_motion* motion,
                               const study_targets& targets = {});

struct double_pendulum_study_result {
  Eigen::VectorXd exact;         // (0, -pi^2, 0, -2 pi^2)
  double z_exact = 0.0;          // Z at the exact acceleration (eq. 5.3)
  Eigen::VectorXd z1_minimiser;  // of eq. 5.6 with W = 1e6 (what the thesis preset aims at)
  double z1_at_minimiser = 0.0;
  double printed_rod2_violation = 0.0;  // |A a - b| of rod 2 at the printed run-5 row
  study_t0_table thesis;
  study_t0_table tuned;  // the default preset (oracle-free)
  // The exact-Hessian ablation at t = 0 (an eigen-decomposition of H = M + 2 A^T W A per solve,
  // which already determines the minimiser), beside the oracle-free default and the thesis
  // settings; reported, not a target.
  study_t0_table exact_hessian;
  double max_rel_error_t0 = 0.0;  // of options.preset
  study_motion motion;
  study_targets targets;
  preset_outcome thesis_outcome, tuned_outcome;  // tuned: the default preset
  preset_outcome motion_outcome;                 // the motion alone (of options.preset)
  std::string motion_preset;                     // options.preset
  // The study failed: the default preset missed its target, diverged or did not converge.
  bool failed = false;
  // Stopped by options.interrupt: the parts not computed (or cut short), in words.
  bool interrupted = false;
  std::vector<std::string> missing_parts;
  std::vector<std::filesystem::path> files;  // written (root only)
  std::string text;                          // plain-text summary for stdout
  // interrupted (the finished parts' folder and the missing ones), failed (reason the default
  // preset's status: missed_target, not_converged, diverged) or ok.
  core::summary summary;

  // The result reports itself: the status line, the text above, the JSON of --json.
  std::string brief_report() const;
  std::string full_report() const { return text; }
  nlohmann::json to_json() const;
};

// Runs the study. Under MPI every rank calls it in lockstep; only the root writes files.
// Throws io::input_error when an output file cannot be written (naming it) and
// io::option_error for bad options.
// The context: progress (fraction in [0, 1], the part as text) on every process; the interrupt
// flag (SIGINT, SIGTERM) stops the study: the part running finishes (a t = 0 solve) or stops at
// its next step (the motion), the parts not started are skipped, and what was computed is
// written with a report naming the missing parts; context.agree turns this process's flag into
// the study's decision (an any-rank vote under mpiexec, so that every rank skips the same parts).
double_pendulum_study_result run_double_pendulum_study(const double_pendulum_study_options& options,
                                                       const core::run_context& context = {});

// The JSON object of `kinevo study double-pendulum --json`.
nlohmann::json to_json(const double_pendulum_study_result& r);

}  // namespace kinevo::studies
