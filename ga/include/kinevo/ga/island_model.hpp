// The island-model GA: K islands, each a generational GA with its own random stream, exchange
// their best individuals every few generations. Islands run on threads in one process or are
// spread over MPI ranks; with the same seed the result is bit-identical either way, because
//   - island i's stream depends only on (seed, i, run index) (boost::random::seed_seq),
//   - islands evolve independently between synchronisation points,
//   - at a synchronisation point every island's emigrants and summary are gathered in island
//     order (MPI_Allgather across ranks) and every island/rank applies the same rule.
// Construct the model ONCE and call run() many times: worker threads and population storage
// persist between runs, so a run costs no thread creation and (for an unchanged dimension and
// population) no allocation.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/ga/options.hpp"
#include "kinevo/ga/problem.hpp"
#include "kinevo/ga/search_box.hpp"
#include "kinevo/ga/termination.hpp"

namespace kinevo::ga {

// Who receives whose emigrants at a migration: ring (island i from i-1), fully_connected (the
// best `migrants` of all other islands' emigrants), random (from one other island drawn afresh
// at every migration from a stream seeded by the master seed), unconnected (no migration).
enum class topology { ring, fully_connected, random, unconnected };

// threads: all islands in this process. mpi: islands spread over the ranks of MPI_COMM_WORLD
// (each rank gets a contiguous block; islands >= ranks). automatic: mpi when MPI is active
// (ga::mpi_environment) with more than one rank, threads otherwise.
enum class transport { automatic, threads, mpi };

struct population_carry;  // population_carry.hpp

std::string to_string(topology t);
std::string to_string(transport t);
topology parse_topology(const std::string& name);    // throws std::invalid_argument
transport parse_transport(const std::string& name);  // throws std::invalid_argument

struct island_options {
  int islands = 1;
  topology links = topology::ring;
  // Generations between migrations (>= 1); also the synchronisation interval (see termination).
  // A generation is about `population` evaluations per island under every generation model
  // (g3: ga_options::family_steps() family steps), so the interval means the same work.
  int migration_interval = 20;
  // Individuals sent by each island per migration (best emigrate, worst are replaced);
  // 0..population - elites.
  int migrants = 2;
  transport via = transport::automatic;
  // Threads per process: 0 means min(islands on this process, hardware threads).
  int threads = 0;
  // Master seed; island streams derive from (seed, island, run index).
  std::uint64_t seed = 1;

  // Throws io::option_error (a std::invalid_argument) naming the field and its allowed range.
  void validate(const ga_options& ga) const;
};

// The one rule for an island count, wherever it is held (optimize, the Gauss solver, synthesis,
// the study): an integer >= 1. Throws io::option_error naming the field "islands".
void require_island_count(int islands);

// One line of the per-generation log (generation 0 is the initial population).
struct generation_record {
  int island = 0;
  long long generation = 0;
  long long evaluations = 0;  // of this island so far in this run
  double best = 0.0;          // best value on the island now
  double mean = 0.0;          // mean value of the population
  double spread = 0.0;        // standard deviation of the values
  double diversity = 0.0;     // mean over variables of std(x_j) / box width_j
};

struct run_result {
  // The best point evaluated in this run by any island (each island keeps its best ever, also
  // with elites = 0, and immigrants count); ties go to the lowest island index. Identical on
  // every rank and for any thread count: no need to track evaluations inside the problem.
  Eigen::VectorXd best_x;
  double best_value = 0.0;
  // Total violation at best_x when the problem reports violations (0: feasible); the best is
  // then chosen by Deb's rules: feasible first, then by value; infeasible by violation.
  double best_violation = 0.0;
  int best_island = 0;
  long long evaluations = 0;  // over all islands
  long long generations = 0;  // completed after the initial population
  stop_reason reason = stop_reason::generations;
  double seconds = 0.0;                    // wall time of this run on this process
  std::vector<generation_record> history;  // when run_settings::record_history; island-major
};

// What a caller sees at every synchronisation point (on every rank).
struct sync_report {
  long long generation = 0;
  long long evaluations = 0;
  double best_value = 0.0;
  double best_violation = 0.0;
  const termination* limits = nullptr;
};

struct run_settings {
  // Distinguishes successive runs with one seed (range runs, time steps): streams are derived
  // from (seed, island, run_index).
  std::uint64_t run_index = 0;
  // Optional point (inside the box) put into every island's initial population (e.g. the
  // previous best); null for a purely random start.
  const Eigen::VectorXd* start_point = nullptr;
  // Optional box (inside the search box) the initial populations are drawn in instead of the
  // search box: test protocols that start away from the optimum (Deb et al. 2002 start in
  // [-10, -5]^n). Null: the search box.
  const search_box* initial_box = nullptr;
  // Optional: each island starts from its own final population of the previous run, moved
  // (population_carry.hpp); an island without one (a first run) draws as usual.
  const population_carry* carry = nullptr;
  bool record_history = false;
  // Write the whole state (populations, random generators, counters) to this file every
  // checkpoint_every generations and when the run ends by interrupt; written atomically by
  // rank 0. Empty or checkpoint_every <= 0: no periodic checkpoints.
  std::filesystem::path checkpoint_file;
  long long checkpoint_every = 0;
  // Called on every rank at every synchronisation point (progress display); may be empty.
  std::function<void(const sync_report&)> on_sync;
};

class island_model {
 public:
  // Throws std::invalid_argument for invalid options (ga.validate, islands.validate) or when
  // transport mpi is asked for but MPI is not active.
  island_model(const ga_options& ga, const island_options& islands);
  ~island_model();
  island_model(island_model&&) noexcept;
  island_model& operator=(island_model&&) noexcept;
  island_model(const island_model&) = delete;
  island_model& operator=(const island_model&) = delete;

  // Minimises p over box. Under MPI every rank must call run() with the same arguments in
  // lockstep; every rank returns the same result. Throws io::option_error for a bad box or
  // termination, ga::evaluation_error (ga/evaluation_error.hpp) when the problem returns a
  // non-finite value (naming the point) or an island failed on another rank, and
  // io::output_error for an unwritable checkpoint.
  run_result run(const problem& p, const search_box& box, const termination& limits,
                 const run_settings& settings = {});

  // Continues the run saved in `checkpoint` (written by run() with the same options, problem
  // and box) and reaches exactly the result the uninterrupted run would have. `limits` may
  // differ from the original ones (e.g. a larger generation limit). Throws io::input_error
  // naming the file and line when the file is unreadable, truncated or edited (a checksum
  // covers it), was written with other options or another problem (the fingerprint), or its
  // generation count disagrees with the islands' evaluation counts. The box is the file's.
  run_result resume(const problem& p, const std::filesystem::path& checkpoint,
                    const termination& limits, const run_settings& settings = {});
  // The same, and also refuses (io::input_error naming the bound and variable) a checkpoint
  // whose search box differs from `box` in any bit: what a caller that knows its box (e.g.
  // `optimize --lower/--upper`) should call.
  run_result resume(const problem& p, const search_box& box,
                    const std::filesystem::path& checkpoint, const termination& limits,
                    const run_settings& settings = {});

  // Writes the state to `path` at the end of the last run (rank 0 only). Used after an
  // interrupt when no periodic checkpoint file was given.
  void save_checkpoint(const std::filesystem::path& path) const;

  const ga_options& ga() const;
  const island_options& islands() const;
  // Islands evolved by this process (all of them with the threads transport).
  int local_islands() const;
  // True when this process should print and write files (rank 0, or not under MPI).
  bool is_root() const;

 private:
  run_result resume_checked(const problem& p, const search_box* expected_box,
                            const std::filesystem::path& checkpoint, const termination& limits,
                            const run_settings& settings);
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace kinevo::ga
