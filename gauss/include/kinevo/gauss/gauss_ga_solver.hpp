// The "ga" acceleration solver: Gauss' principle (generalized-inverse dissertation (GIGSP),
// eqs. 5.3-5.6) minimised by the island GA in range runs (sec. 5.4): run 1 searches a box
// around a guess, each later run is re-centred on the best point and shrunk, and the runs stop
// when the best moves less than the tolerance between runs. Each solve after the first starts
// from a prediction (warm start): the same integrator stage of the last steps extrapolated in
// time, in a box a few times the recent prediction error; one run suffices when that box is
// small enough for the run's resolution.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/options.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/gauss/gauss_objective.hpp"
#include "kinevo/gauss/gauss_penalty_schedule.hpp"
#include "kinevo/gauss/inner_minimiser.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::gauss {

using mechanics::acceleration_result;
using mechanics::acceleration_solver;
using mechanics::constrained_system;
using mechanics::solve_status;

// The coordinates a run's GA searches: a = centre + basis x.
enum class search_axes {
  coordinates,  // x = a itself (the dissertation's GAucsd runs)
  // x = B^T (a - c), B = blockdiag(L_b^-T) from M's own diagonal blocks (mass_scaling.hpp): the
  // Gauss function is a unit sphere, the constraint rows are left for the GA to find. The
  // default: O(nnz) per solve, no factorisation of anything containing A.
  mass_scaled,
  // The ablation only, both oracles: they eigen-decompose H = M + 2 A^T W A, which already
  // determines the minimiser. principal: along its eigenvectors (orthonormal, m/s^2 per unit);
  // exact_hessian: scaled by lambda_i^-1/2, Z1 = g^T x + 1/2 |x|^2 (H' = I), a sphere on which
  // one gradient evaluation gives the minimiser.
  principal,
  exact_hessian,
};
// Where a warm solve's multipliers come from.
enum class warm_multipliers {
  // The same stage of the last steps extrapolated like the accelerations (no solve).
  extrapolated,
  // The ablation only: least squares A^T lambda = -M (a_pred - a_f) by a column-pivoted QR of
  // A^T (a coupled factorisation).
  least_squares,
};
// How a cold solve chooses its first box.
enum class cold_box {
  fixed,    // cold_guess +- cold_radius in every search coordinate (the dissertation's 0 +- 50)
  derived,  // centred on the free acceleration a_f, radius from the problem's own numbers:
            // box_margin times an estimate of the H-norm distance to the answer (see .cpp)
};
std::string to_string(search_axes a);
std::string to_string(cold_box c);
std::string to_string(warm_multipliers w);
// Names: coordinates, mass-scaled, principal, exact-hessian.
search_axes parse_search_axes(const std::string& name);
warm_multipliers parse_warm_multipliers(const std::string& name);
cold_box parse_cold_box(const std::string& name);

// The GA and the penalty of the oracle-free default (the "default" preset, docs/gauss.md):
// G3-PCX with population 100 in a learned metric, kept from run to run; multiplier updates with
// row-relative weights 1e4.
ga::ga_options oracle_free_ga();
gauss_penalty_options oracle_free_penalty();

// Default-constructed, the options are the oracle-free default: the same values as
// gauss_ga_preset("default"), no factorisation of anything containing A. The exact-Hessian
// ablation is reached only by name (gauss_ga_preset("exact-hessian"), or axes =
// search_axes::exact_hessian and multipliers = warm_multipliers::least_squares set by hand).
struct gauss_ga_options {
  ga::ga_options ga = oracle_free_ga();                   // one island's GA (see presets below)
  ga::island_options islands;                             // count, migration, transport, seed
  gauss_penalty_options penalty = oracle_free_penalty();  // W and the schedule between runs

  // Budget of one run over all islands ("trials per run"): the larger of evaluations_per_run
  // and evaluations_per_coordinate * n, so that the work grows linearly with the model.
  long long evaluations_per_run = 6400;
  long long evaluations_per_coordinate = 800;
  // Individuals per island: at least this times n (0: ga.population always). Rotation-invariant
  // recombination (DE with crossover rate 1) never leaves the affine hull of the population,
  // which must therefore have more members than coordinates.
  double population_per_coordinate = 0.0;
  // Scale the run budget with the population: run_budget(n) times population(n) / ga.population,
  // so that a population grown by population_per_coordinate keeps the G3 generations per run
  // (off: the budget stays max(evaluations_per_run, evaluations_per_coordinate n), and a larger
  // population makes fewer generations; measured in docs/gauss.md, "At scale").
  bool budget_follows_population = false;
  // PCX's spread across the index parent's direction is ga.pcx_sigma_eta times the parents'
  // mean distance from that line, along each of n - 1 directions: relative to the population's
  // spread a child's step grows like sqrt(n). Above sigma_eta_reference coordinates sigma_eta
  // is therefore ga.pcx_sigma_eta * sqrt(sigma_eta_reference / n) (0: never). Without it, at
  // n = 400 (the 200-link chain) every child of the first run lands beyond the box, is clipped
  // to a corner and is worse than the best initial point: the runs never move (docs/gauss.md,
  // "At scale").
  int sigma_eta_reference = 100;
  // Per-run stop rule (0: off, every run spends its budget). A run after the first stops when
  // its best has not improved Z1 by more than tau = 1/2 (stall_fraction |c|_M)^2, c the change
  // of the best made by the previous run, for stall_window n evaluations (Z1 - min Z1 >=
  // 1/2 |a - a_min|_M^2 since H >= M), so that the early runs, whose multipliers are far off and
  // whose changes are large, stop at a coarse precision and the later ones at a fine one. The
  // budget stays the cap. Off by default: measured (docs/gauss.md, "At scale"), 0.1 saves 36-50 %
  // of the evaluations up to n = 40 and nothing from n = 70 up, where no run stalls.
  double stall_fraction = 0.0;
  double stall_window = 100.0;  // evaluations per coordinate without a tau improvement
  // Exchanges between the islands in one run; 0: islands.migration_interval as given. The
  // islands share one run's budget, so a run is a few dozen generations at most (G3-PCX, 6400
  // evaluations: 31 generations with 2 islands of 100, 7 with 8), and a fixed interval of 20
  // would leave them apart for the whole run: the interval becomes max(1, the run's
  // generations / migrations_per_run), for the run budget of the model's n.
  // A G3 generation is 50 family steps (100 evaluations per island), so 6 exchanges a run are
  // every 5 generations with 2 islands and every one with 8 (docs/gauss.md).
  int migrations_per_run = 6;
  int max_runs = 60;  // per solve, cold or warm (widening runs included)
  // The cap on runs grows with the model: max(max_runs, ceil(max_runs_per_coordinate n)); 0
  // keeps max_runs at every n. With the learned metric the runs a cold solve needs grow roughly
  // like n (9 at n = 20, 38 at 100, 92 at 200: docs/gauss.md, "At scale"), and a fixed cap of 60
  // stopped the 100-link chain short of converging.
  double max_runs_per_coordinate = 0.75;

  search_axes axes = search_axes::mass_scaled;
  warm_multipliers multipliers = warm_multipliers::extrapolated;
  // Report the rank of A and its redundant rows (GIGSP's sweep, a coupled factorisation: a
  // diagnosis after the solve, off by default).
  bool diagnose_rank = false;

  // Cold start.
  cold_box cold = cold_box::derived;
  double cold_guess = 0.0;    // fixed: the centre in every coordinate
  double cold_radius = 50.0;  // fixed: the half width (m/s^2); also the widening cap of fixed
  // derived: half width = box_margin x the estimated distance |a - centre|_H to the answer.
  double box_margin = 4.0;
  // Radius of run k (k >= 2) as a multiple of run k-1's, unless radii_per_run gives it.
  double shrink = 0.01;
  // Optional explicit radii of runs 1, 2, ... of a cold solve (the thesis preset: 50, 10, 1,
  // 0.1, 0.01), in the units of the search coordinates.
  std::vector<double> radii_per_run;
  // A best within face_fraction of a face (in units of the half width) may be cut off by the
  // box: the next run is centred on it and widened by `growth` instead of shrunk.
  double face_fraction = 0.75;
  double growth = 10.0;
  // The next box also holds box_margin times the move of the minimiser that the multiplier
  // update causes: |H'^-1 B^T A^T dlambda| <= |B^T A^T dlambda| whenever B^T H B >= I (mass-scaled
  // axes; exact in the exact-Hessian ones). Without it the
  // boxes shrink faster than the multipliers converge on models whose rows are coupled
  // (chains, closed loops) and the minimiser leaves the box run after run.
  bool box_follows_multipliers = true;
  // The same move is also bounded by sqrt(dlambda^T (2W)^-1 dlambda): A H^-1 A^T <= (2W)^-1 for
  // H = M + 2 A^T W A, so the H-norm of the move needs only the weights (O(m), no factoring).
  // The bound above is loose along stiff rows (by up to the largest eigenvalue of H'); true:
  // the smaller of the two. Off by default: measured (docs/gauss.md, "At scale"), the loose
  // bound's large box also holds the early runs' own errors, which the shrink factor
  // underestimates, and the tight one costs the 10-link chain two widened runs.
  bool move_bound_from_weights = false;
  // A run whose best pressed on a face of its box has not resolved its inner problem, and the
  // method of multipliers assumes it has: the multipliers then wait for the widened run
  // (false: they are updated after every run, the g3-pcx preset's bits).
  bool hold_multipliers_on_face = true;

  // Warm start: the box is centred on a predicted acceleration; its radius covers warm_factor
  // times the largest prediction error among the last `warm_history` warm solves (4 covers the
  // stages of one RK4 step), at least warm_min_radius * max(1, max |prediction|), in m/s^2
  // along every axis.
  // The prediction: solves are taken in cycles of warm_cycle calls (4 = the stages of one
  // classical RK4 step, in order); call i is predicted from calls i - c, i - 2c, i - 3c (the
  // same stage of the last steps) by polynomial extrapolation of degree warm_order (2:
  // a = 3 a1 - 3 a2 + a3, error O(h^3); 3: 4 a1 - 6 a2 + 4 a3 - a4, O(h^4)) once those calls
  // exist, from the
  // previous acceleration before. A wrong cycle (another integrator) only costs runs: the
  // prediction errors widen the box and the stopping rule below then asks for more runs.
  bool warm_start = true;
  double warm_factor = 4.0;
  double warm_min_radius = 1e-8;
  int warm_history = 4;
  int warm_cycle = 4;
  int warm_order = 3;
  // The fraction of its box one run resolves (measured on the whitened sphere: 1e-4 to 5e-4
  // with 1 to 4 islands, 1e-3 with 8). A run counts towards convergence only when this times
  // its largest half width in m/s^2 is within the tolerance; a warm solve stops after its first
  // run when that is within a quarter of the tolerance (a typical resolution, not a bound), the
  // best lies inside the box and the residual test below passes. 0: never accept a single run
  // (the thesis preset).
  double run_resolution = 1e-3;

  // Converged when the best moves by at most tolerance * max(1, max|a|) between two runs, is
  // not near a face, and every residual |A_i a - b_i| is at most that times sum_j |A_ij| (what
  // an acceleration error of that size could leave).
  double tolerance = 1e-9;
  // The best may move by at most this fraction of the tolerance between the last two runs: the
  // multiplier loop converges linearly (ratio rho per run), so the error left after the last
  // run is about change * rho / (1 - rho); 1 trusts rho <= 1/2, 0.25 rho <= 0.8.
  double change_fraction = 0.25;
  // Heavy-ball acceleration of the multiplier loop (Polyak's momentum on the augmented
  // Lagrangian's dual iteration; see docs/gauss.md, "Accelerated multipliers"). The plain
  // update lambda += 2 W r contracts the dual error by rho = 1 / (1 + 2 w mu_min) per run, where
  // mu_min is the softest mode of the row-scaled A M^-1 A^T (it weakens like 1/N^2 on a chain):
  // rho = 0.55 at 50 links. The first probe_runs updates (at least) are plain; rho is read from
  // the ratios of the best's successive changes between runs once three consecutive ratios
  // agree within a factor 1.5 (the largest, capped at max_contraction), and the later updates are
  //   lambda+ = lambda + alpha 2 W r + beta (lambda - lambda-),
  //   alpha = 4 / (1 + sqrt(1 - rho))^2, beta = ((1 - sqrt(1 - rho)) / (1 + sqrt(1 - rho)))^2,
  // which contract by sqrt(beta) (0.20 for rho = 0.55, 0.42 for 0.83). Uses the GA's own
  // residuals only: nothing containing A is factored. Warm solves reuse the last cold rho. When
  // two ratios in a row exceed rho (the GA's own error dominates), the loop turns plain again.
  // Off by default: measured (docs/gauss.md), it saves 2 of 13 runs on the 20-link chain but
  // none on the 50-link chain, whose best still moves by ~0.55 per run with the momentum on
  // (the per-run rate there is not the dual contraction alone).
  bool multiplier_momentum = false;
  int probe_runs = 3;
  double max_contraction = 0.95;
  // How each run after the first starts (ga/population_carry.hpp): off, a uniform draw in its
  // box (the default); or fill, every island's final population of the previous run moved from
  // that run's best onto the new centre and scaled to fill the box, so that the runs do not
  // relearn the valley's shape. Needs real genes and a search frame fixed within a solve
  // (multiplier updates); measured in docs/gauss.md.
  ga::carry_mode carry_population = ga::carry_mode::off;
  // A row whose residual |A a - b| exceeds this times (1 + |b_i|) after the runs is suspected
  // inconsistent and checked by a run with ten times the weights (Z1 grows with w only then).
  double inconsistency_tolerance = 1e-6;

  // Keep the per-run table and best-so-far snapshots at every synchronisation point of the
  // last solve (for the study's Table 5.1 and convergence figures).
  bool record_trace = false;

  // Individuals per island for n coordinates (ga.population, or more: population_per_coordinate).
  int population(int coordinates) const;
  // The per-run budget for n coordinates.
  long long run_budget(int coordinates) const;
  // PCX's sigma_eta for n coordinates (sigma_eta_reference).
  double sigma_eta(int coordinates) const;
  // The cap on a solve's runs for n coordinates (max_runs_per_coordinate).
  int run_cap(int coordinates) const;
  void validate() const;  // throws std::invalid_argument naming the field
};

// "default" (also "learned-metric" and "no-oracle", its older names): gauss_ga_options{}
// itself, G3-PCX in mass-scaled axes and in a metric the islands learn from their children's
// ranks and keep between runs, derived boxes, multiplier updates (extrapolated between warm
// solves) and row-relative weights 1e4, 800 n evaluations per run, a run cap growing with n, no
// factorisation of anything containing A. "g3-pcx": the default until session 24, the same
// without the learned metric, weights 1e3, 1600 n evaluations per run, 60 runs at every n.
// "exact-hessian": the ablation, BLX in the whitened eigen-axes of H with least-squares warm
// multipliers, a direct solver with a GA attached (docs/gauss.md). "thesis": the dissertation's
// GAucsd settings (16-bit binary genes, population 100, 6400 trials per run, two-point
// crossover 0.6, mutation 0.001 per bit, W = 1e6 fixed, radii 50, 10, 1, 0.1, 0.01).
// Throws std::invalid_argument for another name.
gauss_ga_options gauss_ga_preset(const std::string& name);
std::vector<std::string> gauss_ga_preset_names();

// One run of a solve (a row of Table 5.1).
struct gauss_run_record {
  int run = 0;                   // 1-based within the solve
  Eigen::VectorXd centre;        // of the searched box
  Eigen::VectorXd radii;         // half widths along the search axes, in m/s^2
  Eigen::VectorXd acceleration;  // best of the run
  double z1 = 0.0;               // eq. 5.6 at the best with this run's weights
  double z = 0.0;                // eq. 5.3 at the best
  double max_residual = 0.0;     // max |A a - b|
  double change = std::numeric_limits<double>::infinity();  // max |best - previous best|
  bool near_face = false;                                   // the next run was widened
  // The multipliers after the run's update (unchanged after a face run: hold_multipliers_on_face)
  Eigen::VectorXd multipliers;
  long long evaluations = 0;  // of this run, all islands
  double seconds = 0.0;
};

// Best-so-far at one synchronisation point of a run (convergence figures). Under MPI only this
// rank's islands are seen.
struct gauss_snapshot {
  int run = 0;
  long long generation = 0;
  long long evaluations = 0;  // since the start of the solve, all islands
  Eigen::VectorXd acceleration;
  double z1 = 0.0;
};

struct search_frame;  // the coordinates of one run (gauss_ga_solver.cpp)

class gauss_ga_solver final : public acceleration_solver {
 public:
  explicit gauss_ga_solver(gauss_ga_options options);
  ~gauss_ga_solver() override;
  gauss_ga_solver(const gauss_ga_solver&) = delete;
  gauss_ga_solver& operator=(const gauss_ga_solver&) = delete;

  // "ga", or the name given with set_inner_minimiser.
  std::string name() const override { return inner_name_.empty() ? "ga" : inner_name_; }
  // Under MPI every rank must call solve() in lockstep with the same system.
  acceleration_result solve(const constrained_system& system) override;

  // Forget the previous acceleration: the next solve is a cold start.
  void reset();
  // For comparisons only (bench/): every later run (the inner problems of the multiplier loop
  // and the inconsistency check) is minimised by `minimiser` instead of the island GA, with the
  // same objective, box, budget, start point and stopping rule; the solver then reports under
  // `name`. Single-process only (the island model's MPI lockstep is bypassed). An empty
  // minimiser restores the GA.
  void set_inner_minimiser(std::string name, inner_minimiser minimiser);
  const gauss_ga_options& options() const { return options_; }
  // Trace of the last solve (empty unless options.record_trace).
  const std::vector<gauss_run_record>& last_runs() const { return runs_; }
  const std::vector<gauss_snapshot>& last_snapshots() const { return snapshots_; }
  // True on the process that should print and write files.
  bool is_root() const;
  long long solves() const { return solves_; }

 private:
  gauss_ga_options options_;
  std::unique_ptr<ga::island_model> model_;
  inner_minimiser inner_;              // empty: the island model
  std::string inner_name_;             // empty: "ga"
  Eigen::VectorXd previous_;           // last acceleration (warm start)
  std::vector<double> recent_errors_;  // max |a - prediction| of the last warm solves (radius)
  // Accelerations of the last solves, newest last (at most 3 warm_cycle + 1), for prediction.
  std::vector<Eigen::VectorXd> history_;
  std::vector<Eigen::VectorXd> multiplier_history_;  // the final lambda of the same solves
  long long solves_ = 0;
  double contraction_ = -1.0;  // rho of the multiplier loop from the last cold solve (< 0: none)

  // Stages of solve() (see the .cpp).
  struct box {
    Eigen::VectorXd centre;  // in accelerations
    Eigen::VectorXd half;    // half widths in the run's search coordinates
  };
  struct solve_state;  // what the stages of one solve share (the .cpp)
  solve_state prepare(const constrained_system& system);
  box first_box(const solve_state& s) const;
  void predict_multipliers(const constrained_system& system, solve_state& s) const;
  void fit_model(int coordinates);
  // One run by the island model, or by the inner minimiser when one is set.
  ga::run_result run_inner(const ga::problem& objective, const ga::search_box& box,
                           const ga::termination& limits, const ga::run_settings& settings);
  void run_ranges(solve_state& s, box first);
  struct range_loop;  // what the multiplier loop carries between runs (the .cpp)
  bool after_run(solve_state& s, range_loop& loop, const ga::run_result& r, int k,
                 ga::range_run_step* next);
  void stop_on_stall(const solve_state& s, int k, const Eigen::VectorXd& previous_move,
                     double converged_change, ga::termination& per_run) const;
  void accelerate_multipliers(solve_state& s, const Eigen::VectorXd& lambda_before,
                              double change) const;
  double multiplier_move(const solve_state& s, const Eigen::VectorXd& dlambda,
                         bool constrained) const;
  gauss_run_record judge_run(const solve_state& s, int k, const ga::run_result& r,
                             const Eigen::VectorXd& start, const Eigen::VectorXd& run_centre,
                             const Eigen::VectorXd& half, const Eigen::VectorXd& last_best,
                             const Eigen::VectorXd& best, const Eigen::VectorXd& residual,
                             bool& converged) const;
  acceleration_result finish(solve_state& s);
  Eigen::VectorXd predict(const std::vector<Eigen::VectorXd>& history,
                          const Eigen::VectorXd& previous) const;
  box warm_box(const Eigen::VectorXd& predicted, const search_frame& frame) const;
  box cold_box_of(const gauss_terms& terms, const Eigen::VectorXd& scales,
                  const search_frame& frame) const;
  Eigen::VectorXd next_half(const Eigen::VectorXd& half, int next_run, bool warm, bool widen,
                            double update_move) const;
  bool diagnose_inconsistent(const constrained_system& system, const gauss_terms& terms,
                             const Eigen::VectorXd& scales, const Eigen::VectorXd& a,
                             std::uint64_t first_run_index, acceleration_result& out);
  void remember(const Eigen::VectorXd& a, const Eigen::VectorXd& lambda, double prediction_error);
  std::vector<gauss_run_record> runs_;
  std::vector<gauss_snapshot> snapshots_;
};

}  // namespace kinevo::gauss
