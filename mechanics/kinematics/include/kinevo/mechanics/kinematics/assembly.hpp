// Assembly: moving an estimated initial state onto the constraints (Haug, Computer-Aided
// Kinematics and Dynamics of Mechanical Systems, section 4.3).
//
// Positions: minimise the penalty function
//   F(q) = (q - q0)^T (q - q0) + r Phi(q, t)^T Phi(q, t)
// for an increasing sequence of r, each minimisation warm-started from the last, by the
// Davidon-Fletcher-Powell quasi-Newton update with a line search (the method printed as a
// "conjugate gradient" one in section 4.3; its search direction uses the current inverse-Hessian
// estimate H^(i)), gradient 2 (q - q0) + 2 r Phi_q^T Phi. Once |Phi| and the change of q between
// two penalties are within `penalty_tolerance`, a few Gauss-Newton (least-squares Newton-Raphson)
// corrections dq = -Phi_q^+ Phi take |Phi| to round-off: Phi_q^+ is the minimum-norm
// pseudo-inverse (complete orthogonal decomposition), so redundant constraints and free degrees
// of freedom are fine and the state moves no more than it must.
// Velocities: the estimate q0' is projected onto the velocity equations Phi_q q' = -Phi_t (and
// the nonholonomic rows A_n q' = -a_t) with the minimum-norm change.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

struct assembly_options {
  // Penalty stage: stop increasing r when max |Phi_i| and max |dq_i| between two penalties are
  // both within this; Gauss-Newton takes over from there.
  double penalty_tolerance = 1e-3;
  // The answer: max |Phi_i| after the Gauss-Newton corrections (and max |velocity violation|).
  double position_tolerance = 1e-10;
  double velocity_tolerance = 1e-10;
  // The r sequence: r_0 = penalty_start, r_k+1 = penalty_growth r_k, at most penalty_max.
  double penalty_start = 1.0;
  double penalty_growth = 10.0;
  double penalty_max = 1e10;
  // DFP iterations per penalty value (each a line search) and Gauss-Newton corrections (far
  // from the solution of a long chain these are damped and converge linearly at first).
  int max_quasi_newton_iterations = 500;
  int max_newton_iterations = 50;
  // Relative rank tolerance of the complete orthogonal decomposition of Phi_q (Eigen's
  // threshold): pivots below it times the largest are treated as zero (redundant rows).
  double rank_tolerance = 1e-10;
  // How many of the most violated constraints the report names.
  int worst_constraints = 3;

  // Throws io::option_error naming the field: tolerances and penalty_start > 0, penalty_growth
  // > 1, penalty_max >= penalty_start, iteration caps >= 1 (Gauss-Newton >= 1),
  // rank_tolerance in (0, 1), worst_constraints >= 1.
  void validate() const;
};

struct constraint_violation {
  std::string name;
  double value = 0.0;  // Phi_i (signed)
};

struct assembly_result {
  bool converged = false;
  std::string message;  // empty on success; otherwise says why and names the worst constraints
  double t = 0.0;
  // The assembled state (on failure: the last iterate, never to be used as assembled).
  Eigen::VectorXd q, qd;
  // max |Phi_i| and max |velocity violation_i| of the estimate and of the answer.
  double violation_before = 0.0, violation_after = 0.0;
  double velocity_violation_before = 0.0, velocity_violation_after = 0.0;
  double max_position_change = 0.0;  // max |q_i - q0_i|
  double max_velocity_change = 0.0;
  int penalty_stages = 0;           // r values used
  double final_penalty = 0.0;       // the last r
  int quasi_newton_iterations = 0;  // DFP iterations over all r
  int newton_iterations = 0;        // Gauss-Newton corrections
  int rank = 0;                     // rank of Phi_q at the answer
  // The most violated constraints of the estimate, and on failure those still violated beyond
  // the tolerance at the last iterate (velocity rows marked " (velocity)"), most violated first.
  std::vector<constraint_violation> worst_before, worst_after;
  std::vector<std::string> coordinate_names;

  // The outcome (core/outcome.hpp): ok when converged, else failed with reason
  // "not_assembled" and the message.
  core::summary summary() const;
  // One line: "assembled at t = 0: max |Phi| 0.286 -> 2.22e-16, ..." or the failure message.
  std::string brief_report() const;
  // The brief report and the worst constraints, one per line, and the largest position changes.
  std::string full_report() const;
  nlohmann::json to_json() const;
};

// Assembles the model's initial state at time t.
assembly_result assemble(const model& m, double t = 0.0, const assembly_options& options = {});
// Assembles the estimate (q0, qd0) at time t.
assembly_result assemble(const model& m, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                         double t, const assembly_options& options = {});

// A copy of `m` whose initial state is the assembled one. Throws std::logic_error when `result`
// did not converge (an unconverged state is never used as assembled), std::invalid_argument
// when its sizes are not m's.
model assembled_model(const model& m, const assembly_result& result);

}  // namespace kinevo::mechanics
