// The result of `kinevo optimize`: what was minimised, every (range) run's best and the derived
// figures, reporting itself (Ceres Solver's Solver::Summary is the model): a one-line brief
// report, the full text report, a JSON object, and the tables and chart series of its files.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/io/csv_table.hpp"
#include "kinevo/io/svg_plot.hpp"

namespace kinevo::optimization {

// A problem file's figures at the best point.
struct expression_report {
  std::string file;
  std::vector<std::string> variables;
  double objective = 0.0;
  // Largest raw violation: max(0, g_i) and |h_i| (without the equality tolerance).
  double max_violation = 0.0;
  std::vector<double> constraint_values;
  std::string constraints;            // the handling: penalty, multipliers, feasibility, epsilon
  double equality_tolerance = 0.0;    // delta: |h| <= delta satisfies an equality
  double inequality_tolerance = 0.0;  // sigma: g <= sigma satisfies an inequality
  // Every g_i <= 0 and |h_i| <= delta at the best point.
  bool feasible = true;
  bool allow_infeasible = false;  // an infeasible answer is then not a failure
};

// The files a run writes on request (empty: not written): the CSV log per generation and island
// (key log), the SVG chart of the best value per generation (plot) and the CSV table of every
// (range) run's best (table).
struct run_files {
  std::string log, plot, table;
  // The log and the chart read the per-generation history (optimize_options::record_history).
  bool need_history() const { return !log.empty() || !plot.empty(); }
};

struct optimization_run {
  std::string function;  // the test function's or the problem file's name
  int dim = 0;
  std::uint64_t seed = 0;
  int islands = 0;
  std::optional<expression_report> expression;  // with a problem file
  int range_runs = 1;                           // runs asked for (1: a single run)
  // Every run (one record for a single run; its axes are left empty) and the best over all.
  ga::range_run_result result;
  long long generations = 0;                              // over all runs
  ga::stop_reason reason = ga::stop_reason::generations;  // of the last run
  double seconds = 0.0;
  std::string
      checkpoint;    // written on interrupt (range runs: only with --checkpoint); empty otherwise
  bool root = true;  // this process prints and writes files
  // How the run ended (assess()): interrupted (the interruption note), infeasible (the
  // infeasibility warning; accepted with --allow-infeasible), else ok; evaluations and seconds.
  core::summary summary;

  bool interrupted() const { return reason == ga::stop_reason::interrupted; }
  // The answer violates a constraint of the problem file (beyond the equality tolerance).
  bool infeasible() const { return expression && !expression->feasible; }
  // An infeasible answer the user did not accept: a failure (exit 1), with this warning.
  bool failed() const { return infeasible() && !expression->allow_infeasible; }
  std::string infeasibility_warning() const;
  // The summary of the figures above; the driver stores it in `summary` when the run ends.
  core::summary assess() const;

  // One line: best value, evaluations, generations, stop reason, time.
  std::string brief_report() const;
  // The text report: every range run, the problem file's variables, the best point.
  std::string full_report() const;
  // The keys listed in docs/ga.md ("With --json").
  nlohmann::json to_json() const;
  // Best value, evaluations and generations, (problem files) the total violation, then the best
  // point, one value a line, in hex floats: exact digits for comparing runs bit for bit
  // (threads against MPI ranks).
  std::string exact_report() const;
  // What an interrupt kept and how to continue (empty when not interrupted).
  std::string interruption_note() const;
  // What the user must read on stderr after the report: the interruption note, else an
  // infeasible answer as "error: ..." (failed()) or "warning: ..."; none otherwise.
  std::optional<std::string> outcome_note() const;

  // Per generation and island of every run (needs the history recorded).
  io::csv_writer history_log() const;
  // The best value over all islands per generation, one series per run, on one generation axis.
  std::vector<io::chart_series> best_per_generation() const;
  io::chart_options chart_options() const;
  // Every run's evaluations, generations, best value, centre, radii and best point.
  io::csv_writer runs_table() const;
  // Writes the files asked for, each atomically (io::output_error naming a path that cannot be
  // written); the log and the chart need the history recorded.
  void save_files(const run_files& files) const;
};

}  // namespace kinevo::optimization
