// What a kinematic analysis produced (mechanics/kinematics/kinematic_analysis.hpp): the
// Newton-Raphson solves with their convergence diagnosis, the analysed steps (t, q, q', q''), why
// it stopped. The result reports itself like simulation_result: brief_report(), full_report(),
// to_json(), csv() and save_plot().
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/io/csv_table.hpp"

namespace kinevo::mechanics {

// How a Newton-Raphson solve ended, judged from its iterates.
enum class convergence_kind {
  quadratic,  // converged; the step ratios fall (regular root)
  linear,     // converged; the steps shrink by a roughly constant factor: a singular root
  none,       // no convergence: cap reached, iterates wander or grow, or a non-finite value
};
// "quadratic", "linear", "none".
const char* to_string(convergence_kind k);

struct newton_options {
  // Stop when max_i |Phi_i| <= eps_e and max_k |dq_k| <= eps_s (Haug, sec. 4.5: both 1e-5 in
  // the printed problems).
  double eps_e = 1e-5;
  double eps_s = 1e-5;
  // Newton-Raphson solves per position before it is declared not converged. A singular root
  // halves the error per iteration, so 1e-5 from an error of order 1 takes about 17.
  int max_iterations = 50;
  // Relative pivot threshold of the full-pivoting LU of Phi_q (Eigen's FullPivLU): a pivot below
  // rank_tolerance times the largest one counts as zero.
  double rank_tolerance = 1e-10;
  // Throws io::option_error naming the field: eps_e, eps_s finite and > 0, max_iterations in
  // [1, 100000], rank_tolerance in (0, 1).
  void validate() const;
};

// One Newton-Raphson iterate: q^i, Phi(q^i, t) and the step dq solving Phi_q(q^i) dq = -Phi.
struct newton_iterate {
  Eigen::VectorXd q, phi, dq;
  double phi_norm = 0.0;  // max |Phi_i|
  double dq_norm = 0.0;   // max |dq_k|
  int rank = 0;           // of Phi_q(q^i)
};

// The position at one time.
struct position_solution {
  double t = 0.0;
  // The root q^(i+1) = q^i + dq of the last iterate; nullopt unless converged (the last iterate
  // of a failed solve is no answer).
  std::optional<Eigen::VectorXd> q;
  convergence_kind kind = convergence_kind::none;
  int iterations = 0;                    // Newton-Raphson solves
  std::vector<newton_iterate> iterates;  // every iterate, for the diagnosis and reports
  // Linear convergence: the mean ratio |dq^(i+1)| / |dq^i| of the last iterates (0.5 for a
  // double root); NaN otherwise.
  double rate = std::numeric_limits<double>::quiet_NaN();
  double phi_norm = std::numeric_limits<double>::quiet_NaN();  // max |Phi| at q (converged)
  std::string message;      // why it did not converge, or what the linear convergence means
  bool non_finite = false;  // stopped on a NaN or infinite Phi, Phi_q or step
  bool converged() const { return q.has_value(); }
};

// One analysed time.
struct kinematic_step {
  double t = 0.0;
  Eigen::VectorXd q, qd, qdd;
  int iterations = 0;
  double phi_norm = 0.0;  // max |Phi| at q
  // Smallest pivot magnitude of the full-pivoting LU of Phi_q at q over the largest of this
  // step's and the first step's: near 0 close to a singular configuration (a lock-up, a change
  // point), where q' and q'' grow.
  double pivot_ratio = 1.0;
  convergence_kind kind = convergence_kind::quadratic;
};

struct kinematic_analysis_result {
  bool completed = false;  // every grid time analysed: summary ok
  // The last time fully analysed (position, velocity, acceleration); NaN when none was.
  double t_stop = std::numeric_limits<double>::quiet_NaN();
  // The time at which the analysis failed; NaN when completed.
  double t_failed = std::numeric_limits<double>::quiet_NaN();
  long long steps = 0;  // analysed times (= rows)
  std::string message;  // the reason of an early stop, with the time
  // How the analysis ended, with steps and wall time: ok when completed; interrupted (reason
  // "interrupted": the interrupt flag was raised); not_converged with reason "no_position"
  // (Newton-Raphson did not converge: no position at that time); failed with reason "singular"
  // (a singular root or rank-deficient Phi_q: q', q'' undetermined) or "non_finite" (NaN or
  // infinite Phi, Phi_q, velocity or acceleration).
  core::summary summary;
  std::vector<kinematic_step> rows;
  std::vector<std::string> coordinate_names;
  std::string model_name;
  // The failed solve (its iterates, for the report); empty q unless a singular root.
  std::optional<position_solution> failure;
  double t_start = 0.0, t_end = 0.0, dt = 0.0;
  newton_options newton;
  long long total_iterations = 0;
  int max_step_iterations = 0;
  double max_phi_norm = 0.0;  // over the analysed steps
  // The step closest to a singular configuration: its pivot ratio and time (NaN: no steps).
  double min_pivot_ratio = std::numeric_limits<double>::quiet_NaN();
  double t_min_pivot_ratio = std::numeric_limits<double>::quiet_NaN();
  double wall_seconds = 0.0;

  // "completed", "interrupted", or "stopped".
  std::string status() const;
  // One line: status, steps, the time span, and the reason of an early stop.
  std::string brief_report() const;
  // Several lines: the brief one, iterations, closure, tolerances, the failed solve's iterates.
  std::string full_report() const;
  // The JSON of --json: completed, status, stop_reason, t_stop, t_failed, steps, message,
  // model, coordinates, t_start, t_end, dt, eps_e, eps_s, max_iterations, total_iterations,
  // max_step_iterations, max_phi_norm, min_pivot_ratio, t_min_pivot_ratio, failure (null or {t,
  // convergence, iterations, rate, phi_norms}), wall_seconds. Non-finite numbers as null.
  nlohmann::json to_json() const;
  // The CSV columns: t, q..., <q>_dot..., <q>_ddot..., iterations, phi_norm, pivot_ratio,
  // convergence (2 quadratic, 1 linear).
  std::vector<std::string> csv_columns() const;
  io::csv_writer csv() const;
  // The coordinates against t as an SVG line chart (atomically).
  void save_plot(const std::filesystem::path& path, const std::string& title) const;
};

}  // namespace kinevo::mechanics
