// The activity of a model's intermittent constraints during a simulation (docs/intermittent.md):
// which rows are on, the reduced system the solver sees (inactive rows removed, their Coulomb
// friction added to f), the switching conditions, and the projection of q' onto the rows that
// are on after a switch. Generalized-inverse dissertation (GIGSP), section 4.3.2, Example 3,
// eqs. 4.22-4.32: a disc that slips (friction mu m g sgn(slip)) until the rolling row holds.
#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/acceleration_solver.hpp"

namespace kinevo::mechanics {

class intermittent_set {
 public:
  explicit intermittent_set(const model& m);

  bool empty() const { return rows_.empty(); }
  int size() const { return static_cast<int>(rows_.size()); }
  // 1 / 0 per intermittent constraint, in the model's order.
  const std::vector<char>& active() const { return active_; }
  bool active(int k) const { return active_[static_cast<std::size_t>(k)] != 0; }
  const std::string& name(int k) const;
  bool has_friction(int k) const { return rows_[static_cast<std::size_t>(k)].has_friction; }
  // Model row of intermittent constraint k.
  int row(int k) const { return rows_[static_cast<std::size_t>(k)].row; }
  // Switches constraint k; when it switches off, the slip starts on the side the row's last
  // force opposed (C is 0 to round-off there, its sign meaningless).
  void set_active(int k, bool on);
  // At an accepted state: the side s = sgn(C) each slipping row slips on. Within a step the
  // friction keeps that sign (a discrete state, changed only at events), and the default `on`
  // condition is s C - on_tolerance: otherwise exact Coulomb friction reverses within the
  // stages of a step, C saw-tooths around 0 and never ends a step in the thin band |C| <= tol.
  void note_slip(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);
  // At the start: a slipping row with |C| <= on_tolerance (e.g. at rest) starts slipping to the
  // side its slip accelerates to without friction, C' = A_row a - b_row (a: the acceleration
  // with no friction on it), so that the friction has a sign from the first stage on.
  void start_sides(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                   const Eigen::VectorXd& acceleration);
  // Whether model row r is part of the system the solver sees.
  bool row_active(int r) const { return row_on_[static_cast<std::size_t>(r)] != 0; }

  // `full` (the model's system at (q, q', t)) without the inactive rows into `out`, with the
  // friction of the inactive rows added to f: f -= F s dC/dq', C = A_row q' + a_t the row's
  // velocity-level value (the slip velocity), s = sgn(C) exactly (no regularisation), held at
  // the side of the last accepted state through a step (note_slip()).
  void reduce(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
              const constrained_system& full, constrained_system& out);

  // The switching condition of each intermittent constraint at (q, q', t): its `on` condition
  // while off, its `off` condition while on (given the multipliers lambda of the reduced rows,
  // from f_c = A^T lambda). A row switches when its condition falls to <= 0.
  Eigen::VectorXd conditions(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t,
                             const constrained_system& reduced, const acceleration_result& a);

  // q' projected onto the rows that are on, with weight M:
  //   q'+ = q' - M^-1 A^T (A M^-1 A^T)^+ (A q' + a_t)
  // (the least change of kinetic energy norm that satisfies them; a perfectly plastic impact).
  Eigen::VectorXd project(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t);

  // max |velocity-level violation| over the rows that are on.
  double velocity_violation(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const;
  // The velocity-level value C of intermittent constraint k.
  double value(int k, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) const;

 private:
  void rebuild();  // the names and pattern of the reduced system after a switch

  const model& model_;
  std::vector<intermittent_constraint> rows_;
  std::vector<char> active_;
  std::vector<char> row_on_;  // per model row
  std::vector<int> kept_;     // model rows of the reduced system, in order
  std::vector<std::string> names_;
  std::vector<std::pair<int, int>> pattern_;
  intermittent_values values_;
  Eigen::VectorXd last_force_;     // multipliers of the last conditions()
  std::vector<double> slip_side_;  // per constraint: sign of C at the last accepted state
};

}  // namespace kinevo::mechanics
