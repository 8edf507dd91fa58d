// How the constraints enter the integration: which state the integrator advances, how the full
// state (q, q') is recovered from it, which acceleration solves each stage, and what is corrected
// after each accepted step. `full` integrates every coordinate with the user's solver (today's
// behaviour); the others are the reduced and stabilised formulations of docs/formulations.md:
//   partitioning    Yoo, Kim and Kim, "A hybrid scheme using LU decomposition and projection
//                   matrix ...", eqs. 7-9 (independent coordinates by LU with pivoting)
//   projection      the same paper, eqs. 10-20 (null space of Phi_q, rank-revealing)
//   hybrid          the same paper, section 5, steps 1-13 (LU, projection near singularities)
//   qtz-reduced     Del Citto, Pennestri and Vita, "Coordinates reduction and numerical
//                   integration of models of constrained multibody systems", eq. 46 (implicit)
//   qtz-orthogonal  the same paper, eq. 47 (constraint orthogonalisation)
//   qtz-state       the same paper, eqs. 54-67 (state space in a minimum set of coordinates)
//   reuse           generalized-inverse dissertation (GIGSP), section 4.3.3 (approximate inverse)
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

class model;
struct simulation_options;
enum class stabilization_kind;

enum class formulation_kind {
  full,
  partitioning,
  projection,
  hybrid,
  qtz_reduced,
  qtz_orthogonal,
  qtz_state,
  reuse,
};
// "full", "partitioning", "projection", "hybrid", "qtz-reduced", "qtz-orthogonal", "qtz-state",
// "reuse". parse throws io::option_error naming `field` and the allowed names.
const char* to_string(formulation_kind k);
formulation_kind parse_formulation(std::string_view name, const std::string& field = "formulation");
// The names in the order above, for help texts.
std::vector<std::string> formulation_names();

// Options of the formulations; each reads the fields it uses. Defaults are the ones the tests and
// docs/formulations.md use on every example.
struct formulation_options {
  formulation_kind kind = formulation_kind::full;
  // Rank decisions (QTZ, projection, partitioning): a singular value or pivot below
  // rank_tolerance times the largest one counts as zero.
  double rank_tolerance = 1e-9;
  // Newton recovery of the dependent coordinates (partitioning, qtz-state) and the position
  // corrections (projection, qtz-orthogonal): stop at max |Phi| <= newton_tolerance, refuse
  // after newton_iterations.
  double newton_tolerance = 1e-12;
  int newton_iterations = 20;
  // Partitioning: re-partition when the reciprocal condition number of the dependent block
  // Phi_u falls below repartition_ratio times that of the block LU with full pivoting would
  // choose at the same state.
  // 0.5 rather than a looser 0.1: integrating in an independent coordinate whose block is ten
  // times worse conditioned than the best amplifies the integration error about as much (the
  // slider-crank, RK4 dt = 1e-4 over 0.5 s: 5.7e-8 in q against full + GIGSP with 0.1, 3e-11
  // with 0.5; at dt = 1e-3 the energy error was 1.4e-3 with 0.1, 5.6e-7 with 0.5).
  double repartition_ratio = 0.5;
  // Partitioning: the block LU with full pivoting would choose (the comparison above) is
  // recomputed when Phi_u's reciprocal condition number falls below repartition_ratio times
  // that block's at the last such check, and at least every partition_check_every accepted
  // steps, since another block may have become better meanwhile; between those checks only
  // Phi_u's condition is estimated. 1 compares at every step. The full-pivot LU of the dense
  // Phi_q at every step was most of the formulation's cost on long chains
  // (docs/formulations.md, "The partition check").
  int partition_check_every = 10;
  // Hybrid (Yoo et al., section 5): switch from LU to projection when
  //  - the dependent coordinates were re-partitioned hybrid_repartitions times within the last
  //    hybrid_window steps,
  //  - the total energy changed by more than hybrid_energy_tolerance (relative to max(1, |E|))
  //    in one step (models that define an energy),
  //  - the accepted step fell below hybrid_step_drop times the previous one (Dormand-Prince),
  //  - the dependent block's reciprocal condition number fell below hybrid_singular_rcond;
  // back to LU after hybrid_stable_steps steps at the largest step size with that condition
  // number above it again.
  int hybrid_repartitions = 2;
  int hybrid_window = 10;
  double hybrid_energy_tolerance = 1e-8;
  double hybrid_step_drop = 0.5;
  double hybrid_singular_rcond = 1e-2;
  int hybrid_stable_steps = 5;
  // Reuse: an exact generalized inverse every reuse_exact_every steps (5 in the dissertation).
  int reuse_exact_every = 5;

  // Throws io::option_error naming the field: tolerances finite and in (0, 1), iteration and
  // step counts >= 1, hybrid_step_drop in (0, 1).
  void validate() const;
};

// One switch of the hybrid formulation: when, between which methods, and why.
struct formulation_switch {
  double t = 0.0;
  std::string from, to;  // "partitioning", "projection"
  std::string reason;    // e.g. "Phi_u reciprocal condition 3.2e-04 < 1e-02"
};

// What a formulation did over a run (for simulation_result).
struct formulation_report {
  std::string name;                          // to_string(kind)
  std::vector<formulation_switch> switches;  // hybrid
  long long repartitions = 0;                // partitioning, hybrid, qtz-state re-bases
  long long exact_inverses = 0;              // reuse: exact generalized inverses computed
  long long corrections = 0;                 // position/velocity corrections applied
};

// What after_step did.
enum class step_outcome {
  unchanged,  // y as the integrator left it
  changed,    // y was corrected or re-based (its size may have changed): re-evaluate
  failed,     // the run cannot go on: message() says why
};

// The integrated state y = (positions part, velocities part), both of size state_size(). For
// `full` they are (q, q'); reduced formulations advance independent coordinates p and p'.
class formulation {
 public:
  virtual ~formulation() = default;
  virtual formulation_kind kind() const = 0;

  // The solver of the current stage: `user` (the --solver one) or the formulation's own.
  virtual acceleration_solver& solver(acceleration_solver& user) { return user; }

  // Starts at a consistent full state; returns y0.
  virtual Eigen::VectorXd begin(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) = 0;
  // The full state of an integrated one (each stage, each record). false when it cannot be
  // recovered (Newton did not converge); message() says why, naming constraints.
  virtual bool expand(const Eigen::VectorXd& y, double t, Eigen::VectorXd& q,
                      Eigen::VectorXd& qd) = 0;
  // dy/dt at a full state and its acceleration.
  virtual Eigen::VectorXd derivative(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                     const Eigen::VectorXd& qdd) = 0;
  // The same into `dy`, which the integrator keeps between stages (no allocation once sized).
  virtual void derivative_into(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                               const Eigen::VectorXd& qdd, Eigen::VectorXd& dy) {
    dy = derivative(q, qd, qdd);
  }
  // After an accepted step of size h (h_max: the largest step the integrator may take, dt for
  // RK4): corrections, re-partitioning, switching.
  virtual step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) = 0;
  const std::string& message() const { return message_; }
  const formulation_report& report() const { return report_; }

 protected:
  std::string message_;
  formulation_report report_;
};

// Whether the formulation uses the --solver acceleration solver (full, partitioning, hybrid's LU
// phases) and the simulation's stabilization (full, reuse); the others bring their own solver
// and correct the constraints themselves.
bool uses_user_solver(formulation_kind k);
bool uses_stabilization(formulation_kind k);
// The stabilization a formulation gets when none is chosen: Baumgarte for reuse (its kept
// inverse needs compensation: docs/formulations.md), none otherwise.
stabilization_kind default_stabilization(formulation_kind k);
// Why a user's explicit choice does not apply to the formulation (empty when it does): a solver
// chosen for a formulation with its own, a stabilization for one that corrects itself, a
// Dormand-Prince or RK4 integrator for qtz-reduced (integrated by IDA).
std::string formulation_conflict(formulation_kind k, bool solver_given, bool stabilization_given,
                                 bool integrator_given);

// Throws io::input_error naming the nonholonomic rows of `m` (if any) for a formulation that
// takes holonomic constraints only; `why` says what needs the position level.
void require_holonomic(const model& m, formulation_kind kind, std::string_view why);

// The formulation `options.kind` for this model. Throws io::input_error when the model does not
// suit it (nonholonomic rows for the reduced formulations and reuse, naming the rows).
// `simulation` supplies the stabilization that `full` and `reuse` apply after each step.
std::unique_ptr<formulation> make_formulation(const model& m, const formulation_options& options,
                                              const simulation_options& simulation);

}  // namespace kinevo::mechanics
