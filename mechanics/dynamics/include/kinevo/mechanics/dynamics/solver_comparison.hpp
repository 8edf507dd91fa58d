// Every solver's answer at one state, side by side (what `kinevo accel` shows): the
// accelerations, constraint forces and diagnoses, the reference solver (the first that gave a
// finite, ok result) and each solver's difference from it. The comparison reports itself:
// brief_report(), full_report() (the text table), to_json().
#pragma once

#include <Eigen/Core>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::mechanics {

struct solver_comparison_options {
  double t = 0.0;                    // time of the state (the model's initial q, q')
  std::vector<std::string> solvers;  // empty: the direct solvers
  solver_options solver;

  // Throws io::option_error naming the field: t finite, and the solver options' own fields.
  void validate() const;
};

struct solver_answer {
  std::string name;
  acceleration_result result;
  double seconds = 0.0;  // wall time of the solve alone (not of building the solver)
  // max |a - a_reference|; NaN without a reference or without an acceleration.
  double max_difference = std::numeric_limits<double>::quiet_NaN();
  // False also for a system the solver refused as not finite (status non_finite, no answer).
  bool finite() const {
    return result.status != solve_status::non_finite && result.acceleration.allFinite() &&
           result.constraint_force.allFinite();
  }
  // A failure of the solver, as opposed to a diagnosis of the model (least squares, singular,
  // redundant rows): an iterative solver that stopped short, or a NaN or infinite system or
  // result.
  bool failed() const { return result.status == solve_status::not_converged || !finite(); }
};

struct solver_comparison {
  double t = 0.0;
  std::string model_name;
  std::vector<std::string> coordinates, constraints;
  std::vector<solver_answer> answers;
  int reference = -1;                          // index into answers, -1 when none qualifies
  bool inconsistent = false;                   // a solver found the constraints inconsistent
  std::vector<std::string> failed;             // names of the solvers that failed()
  std::vector<std::string> non_finite_inputs;  // of the model at this state ("force of 'x'")
  // ok; failed (reason "inconsistent" when a solver found the constraints inconsistent) with
  // the message of brief_report(), or not_converged when every failed solver stopped short.
  core::summary summary;

  // 0 when every solver gave a finite result and the constraints are consistent.
  bool ok() const { return !inconsistent && failed.empty(); }
  std::string brief_report() const;
  // The text table of `kinevo accel`: accelerations per coordinate and solver, then one line
  // per solver (status, rank, difference, redundant rows, message).
  std::string full_report() const;
  nlohmann::json to_json() const;
};

// Builds every solver first (an unknown name or preset throws before any solve), then solves
// the system at (q0, q'0, t) with each.
solver_comparison compare_solvers(const model& m, const solver_comparison_options& options);

}  // namespace kinevo::mechanics
