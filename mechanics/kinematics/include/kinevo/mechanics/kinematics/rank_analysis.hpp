// Rank and mobility of a model at one configuration (Haug, Computer-Aided Kinematics and
// Dynamics of Mechanical Systems, sections 4.4 and 4.6): Gaussian elimination with full
// pivoting on the holonomic constraint Jacobian Phi_q gives the rank, the redundant constraints,
// a suggested partition into independent and dependent coordinates, the degrees of freedom, and
// whether the drivers make the system kinematically determined. A rank that recovers at nearby
// configurations marks an isolated singular point (Haug, Example 4.6.1).
//
//   rank_report r = analyse_rank(model, q, t);
//   r.lines() / r.text()  human-readable report;  r.to_json()  machine-readable (keys below)
//
// Definitions (n coordinates, holonomic rows only; nonholonomic rows are counted, not analysed):
// - rank: rank of Phi_q over all holonomic rows, drivers included (full pivoting, a pivot is
//   zero when |p| <= relative_tolerance * max|Phi_q,ij|).
// - kinematic rows: the rows that are not drivers (model::is_driver); dof = n - their rank.
// - redundant: kinematic rows that depend on earlier ones. Rows are taken in model order and a
//   row is redundant when it reduces to zero against the rows kept before it, so that, as in
//   Haug's Example 4.6.1, the later of two dependent rows is the redundant one.
// - independent: the coordinates (columns) that take no pivot in the full-pivoting elimination
//   of the kinematic rows (Haug, section 4.6: the suggested independent coordinates, the ones to
//   drive); dependent: the pivot columns. Euler parameters of spatial bodies (<body>_e0.._e3)
//   are replaced there by other coordinates whenever those can take their place (a driver is
//   written on a position or an angle, not on an Euler parameter); the same holds for
//   suggested_drivers.
// - redundant_drivers: drivers that reduce to zero against the kinematic rows and the earlier
//   drivers; missing_drivers = dof - (drivers that are not redundant) >= 0; suggested_drivers:
//   the coordinates without a pivot when the drivers are included (the ones still free).
// - determined: rank == n and no driver is redundant.
// - singular: at nearby configurations the rank of the kinematic rows or of all rows is higher
//   than at q; generic_rank (and generic_kinematic_rank) is the highest rank seen there. A probe
//   is q plus a random perturbation p of relative size `perturbation` (fixed seed), brought
//   back onto the kinematic constraints by Newton steps within a random hyperplane through p
//   (so that it cannot return to q itself); probes that do not converge to round-off, or land
//   farther than 1000 or nearer than 0.1 perturbations from q, are discarded. Without the return to
//   the constraints a perturbation of size d makes every redundant row independent by O(d), and a
//   regular configuration with a redundant constraint would look singular. Each probe costs a
//   few dense minimum-norm solves of the (rows x n) Jacobian.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kinevo/core/outcome.hpp"
#include "kinevo/mechanics/model/model.hpp"

namespace kinevo::mechanics {

// How the rank, the pivot columns and the redundant rows are found. dense: Gaussian elimination
// with full pivoting (Haug 4.4.3), O(n^3) time and O(n^2) memory (1,000 links: 3 s; 10,000 did
// not finish in 300 s). sparse: SuiteSparseQR (detail/sparse_rank_qr.hpp) of Phi_q (COLAMD column
// order) for the rank and the pivot columns, and of Phi_q^T in row order for the redundant rows
// (a column of Phi_q^T whose remaining 2-norm is below the threshold depends on the rows before
// it); a 10,000-link chain in well under a second on top of loading it. The same pivot
// threshold: a remaining column of 2-norm <= relative_tolerance * max|a_ij| counts as zero (the
// dense elimination compares the largest remaining entry), so rank, dof, redundant rows and
// drivers agree; the suggested independent coordinates are another valid choice when several
// exist (the QR picks columns in fill-reducing order, not by size). automatic: dense up to
// dense_coordinates coordinates, sparse above.
enum class rank_method { automatic, dense, sparse };

struct rank_options {
  // A pivot |p| <= relative_tolerance * max|a_ij| counts as zero. Finite, in (0, 1).
  double relative_tolerance = 1e-8;
  // Size of the singular-point probes relative to max(1, |q_i|). Finite, in (0, 0.1].
  // Must stay well above relative_tolerance: the rank that recovers there has pivots ~ this.
  double perturbation = 1e-4;
  // Probes tried (in [0, 100]; 0 skips the singular-point test); the test stops after 3 probes
  // that reached the constraints.
  int perturbation_trials = 10;
  unsigned seed = 20261126;        // of the probes (deterministic reports)
  int projection_iterations = 30;  // Newton steps back onto the constraints, in [1, 1000]
  // The probes are dense minimum-norm solves (about 4 s at 1000 coordinates): models with more
  // coordinates than this skip the singular-point test (singular_test = "skipped"). >= 0.
  int probe_coordinates = 400;
  rank_method method = rank_method::automatic;
  int dense_coordinates = 400;  // automatic: dense up to this many coordinates. >= 0.

  // Throws io::option_error naming the field.
  void validate() const;
};

struct rank_report {
  std::string model_name;
  double t = 0.0;
  int coordinates = 0;                   // n
  int holonomic_rows = 0;                // rows of Phi_q
  int nonholonomic_rows = 0;             // not part of this analysis
  double violation = 0.0;                // max |Phi(q, t)|
  double threshold = 0.0;                // absolute pivot threshold used at q
  int rank = 0;                          // of all holonomic rows
  int kinematic_rank = 0;                // of the rows that are not drivers
  int dof = 0;                           // coordinates - kinematic_rank
  std::vector<std::string> redundant;    // kinematic rows, by name
  std::vector<std::string> independent;  // coordinates, by name
  std::vector<std::string> dependent;
  std::vector<std::string> drivers;            // all driver rows, by name
  std::vector<std::string> redundant_drivers;  // drivers adding nothing
  int missing_drivers = 0;
  // Coordinates that no row pivots on in the full-pivoting elimination of all rows (drivers
  // included): the ones left to drive (missing_drivers of them are needed); empty when rank = n.
  std::vector<std::string> suggested_drivers;
  bool determined = false;
  bool singular = false;
  int generic_rank = 0;            // highest rank of all rows at the probes (rank if none)
  int generic_kinematic_rank = 0;  // the same for the kinematic rows
  int probes = 0;                  // probes that reached the constraints
  // "made" (at least one probe), "inconclusive" (no probe reached the constraints: e.g. a
  // structure without mobility), "skipped" (no trials, or more than probe_coordinates).
  std::string singular_test = "skipped";
  std::string method;  // "dense" or "sparse" (rank_method), the one used

  // The outcome (core/outcome.hpp): always ok. The analysis describes the model (redundant
  // rows, missing drivers, a singular configuration are findings, not failures); a Jacobian
  // that cannot be analysed is an error analyse_rank throws.
  core::summary summary() const { return {}; }
  std::vector<std::string> lines() const;
  std::string text() const;  // lines() joined with '\n'
  // Keys: rank, dof, redundant, independent, dependent, drivers, missing_drivers,
  // redundant_drivers, suggested_drivers, determined, singular, generic_rank, and also model, t,
  // coordinates, holonomic_rows, nonholonomic_rows, kinematic_rank, generic_kinematic_rank,
  // violation, threshold, probes, singular_test, rank_method.
  nlohmann::json to_json() const;
};

// Calls options.validate(); throws io::option_error when q has the wrong size and
// io::input_error naming the constraints whose Jacobian rows are NaN or infinite at (q, t).
rank_report analyse_rank(const model& m, const Eigen::VectorXd& q, double t,
                         const rank_options& options = {});

}  // namespace kinevo::mechanics
