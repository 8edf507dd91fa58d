// The state of one simulation run shared by its stages and integrators: the result being
// filled, the pending solve flags, the record streamed to a callback, and make_record, which
// turns a solved state into a record (diagnostics, divergence and interrupt checks).
#pragma once

#include <Eigen/Core>
#include <string>

#include "kinevo/core/run_context.hpp"
#include "kinevo/mechanics/dynamics/detail/intermittent_constraints.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"

namespace kinevo::mechanics {

class run_dynamics;

// A solve that gave no acceleration to go on with.
inline bool refused(const acceleration_result& r) {
  return r.acceleration.size() == 0 || r.status == solve_status::inconsistent ||
         r.status == solve_status::singular || r.status == solve_status::non_finite;
}

// The larger status code of two.
inline solve_status worse(solve_status a, solve_status b) {
  return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

struct run_state {
  simulation_result result;
  const step_callback* callback = nullptr;
  bool halt = false;  // the record just made is the last: result.stop says why
  bool first_energy = true;
  double max_abs_q0 = 0.0;  // of the first record, for the divergence scales
  // Solves since the previous record.
  solve_status pending_worst = solve_status::ok;
  int pending_unconverged = 0;
  record_thinner thinner{1};
  intermittent_set* intermittent = nullptr;  // a model with intermittent constraints
  // The latest record, the one handed to a step callback, reused from record to record (its
  // vectors keep their storage); records kept in the result are copies of it.
  step_record streamed;
  long long records = 0;  // records made (streamed or kept)
  // The caller's interrupt flag, rank agreement and progress sink (a record a progress point).
  core::run_context context;
};

// Ends the run: why and the message the user sees.
inline void stop_run(run_state& st, simulation_stop why, std::string message) {
  st.result.stop = why;
  st.result.message = std::move(message);
}

// The record of the solved state (q, q', t) with acceleration `a`: streamed to the callback or
// kept in the result; `force_keep` marks the run's last record. Sets st.halt when the run ends
// there (divergence, interrupt, a quantity that overflowed, the caller).
void make_record(const model& m, run_dynamics& dyn, acceleration_solver* reference,
                 const simulation_options& o, double t, const Eigen::VectorXd& q,
                 const Eigen::VectorXd& qd, const acceleration_result& a, run_state& st,
                 bool force_keep);

}  // namespace kinevo::mechanics
