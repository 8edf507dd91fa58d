// Range runs (generalized-inverse dissertation (GIGSP), sec. 5.4): a sequence of GA runs in
// which each run searches a box re-centred on the best point found so far and shrunk, either by
// a constant factor or to given radii per run. Every run's best is recorded (Table 5.1 style).
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <functional>
#include <vector>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/population_carry.hpp"

namespace kinevo::ga {

struct range_run_options {
  // Number of runs (>= 1).
  int runs = 5;
  // Radii of run k+1 = shrink * radii of run k (used when radii_per_run is empty); in (0, 1].
  double shrink = 0.2;
  // Optional explicit radii: entry k (a scalar for every variable) is the radius of run k;
  // run 0 uses the initial box. Must have `runs` entries when given.
  std::vector<double> radii_per_run;
  // Trust-region radii (off when <= 0): after a run whose best moved by d from the run's centre,
  // the next radii are move_factor * |d_j|, at least move_floor * max_j of that, and kept within
  // [shrink * radii_j, radii_j / shrink] (a trust region changes by at most that factor per run);
  // when the best did not move, shrink * radii_j. Lets the box follow a curved valley instead of
  // only shrinking.
  double move_factor = 0.0;
  double move_floor = 0.1;
  // Align the boxes of later runs with the recent moves of the best (an orthonormal basis from
  // the Householder QR of the last `dimension` moves, newest first), so that a trust region can
  // follow a valley that is not parallel to the axes. Radii are then along these axes
  // (range_run_record::axes); points are clipped to clip_lower/upper before evaluation.
  // Needs move_factor > 0.
  bool rotate = false;
  // Budget (generation and evaluation limits) of the first, global run as a multiple of the
  // per-run limits: a longer first run finds the right basin, shorter later runs refine it.
  double first_run_budget = 1.0;
  // Clip every re-centred box to this one (e.g. the problem's bounds); empty: no clipping.
  Eigen::VectorXd clip_lower;
  Eigen::VectorXd clip_upper;
  // Put the previous best into the next run's initial population (never lose the best).
  bool keep_best = true;
  // The run_index of run k is first_run_index + k (streams differ between runs).
  std::uint64_t first_run_index = 0;
  // Keep every re-centred box resolvable in floating point (radii of at least 256 ulps of the
  // centre). A caller whose hook floors the radii itself, in its own units, turns it off.
  bool floor_radii = true;
  // How run k+1's islands start (population_carry.hpp): off, a uniform draw in its box; or
  // each island's final population of run k, moved from that run's best onto the next centre
  // (the hook's; run k's and k+1's coordinates must differ by a translation there) and scaled
  // to fill the box. Not with rotate.
  carry_mode carry = carry_mode::off;

  void validate() const;  // throws std::invalid_argument
};

struct range_run_record {
  int run = 0;
  Eigen::VectorXd centre;  // asked for; the searched box is this box clipped (clip_lower/upper)
  Eigen::VectorXd radii;   // along the columns of `axes`
  // With range_run_options::rotate, the n x n axes of the run (identity until the first
  // rotation); otherwise empty, meaning the identity (no n x n matrix per run: memory stays
  // linear in the dimension).
  Eigen::MatrixXd axes;
  run_result result;
};

// Between runs (after run k, before run k+1) the caller may change its problem (penalty weights,
// multipliers: the problem object is the caller's), the next centre and radii; return false to
// stop early.
struct range_run_step {
  int next_run = 0;
  const run_result* last = nullptr;
  Eigen::VectorXd centre;  // proposed: the best point so far; may be changed
  Eigen::VectorXd radii;   // proposed: shrunk radii; may be changed
  // The next run's start point (with keep_best): empty means the previous best, clipped to the
  // next box; the hook may set another point of that box (e.g. the centre of a problem it has
  // re-parametrised around the best).
  Eigen::VectorXd start;
  // Proposed: the per-run limits; the hook may change the next run's (a run-dependent stall
  // rule). Taken from the replayed steps too.
  termination limits;
  // True when resume_range_runs calls the hook again for a run finished before the interrupt
  // (in order, before continuing), so that the hook can restore what it changes in the problem;
  // the centre, radii and return value are then ignored.
  bool replay = false;
};
using range_run_hook = std::function<bool(range_run_step&)>;

struct range_run_result {
  Eigen::VectorXd best_x;  // best over all runs (as evaluated by the problem at the time)
  double best_value = 0.0;
  double best_violation = 0.0;  // problems that report violations; chosen by Deb's rules
  long long evaluations = 0;
  std::vector<range_run_record> runs;
};

// Who minimises one run: the island model by default; a comparison (bench/) may hand each run
// (problem, box, limits, start point, run index) to another minimiser of the same contract as
// island_model::run. Sequences with such a minimiser cannot checkpoint.
using run_minimiser = std::function<run_result(const problem&, const search_box&,
                                               const termination&, const run_settings&)>;

// Runs `options.runs` GA runs with `model`, the first on `first`, starting from
// settings.start_point when given (later runs: see keep_best and range_run_step::start). Stops
// after a run that ended by interrupt or wall time; `runs` then holds every run so far, the last
// one with that reason. Checkpoints: with settings.checkpoint_file, every run checkpoints through
// the island model as a single run does (checkpoint_every, and always when interrupted), and before
// each run the range-run state (finished runs, centre, radii, box, axes) is written beside it, to
// range_state_path(checkpoint_file) (rank 0, atomically, with a checksum).
range_run_result run_range_runs(island_model& model, const problem& p, const search_box& first,
                                const termination& per_run, const range_run_options& options,
                                const range_run_hook& hook = {}, run_settings settings = {},
                                const run_minimiser& minimiser = {});

// Continues a sequence interrupted with a checkpoint: the interrupted run resumes from
// `checkpoint` (island_model::resume, with its box checked), the later ones follow as they
// would have; the result equals the uninterrupted one, except that the records of the runs
// finished before the interrupt have no history. Give the same model options, problem, first
// box and range-run options (a fingerprint in the state file is checked) and the same hook:
// it is called again for every finished run (range_run_step::replay), so that what it changes
// in the problem between runs is restored. Throws
// io::input_error naming the file and line for a missing, edited or mismatched state.
range_run_result resume_range_runs(island_model& model, const problem& p, const search_box& first,
                                   const termination& per_run, const range_run_options& options,
                                   const std::filesystem::path& checkpoint,
                                   const range_run_hook& hook = {}, run_settings settings = {});

// The range-run state file that goes with an island checkpoint: "<checkpoint>.ranges".
std::filesystem::path range_state_path(const std::filesystem::path& checkpoint);

}  // namespace kinevo::ga
