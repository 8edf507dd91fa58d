// A metric the island learns from the ranks of its own children, for PCX in the g3 model
// (ga_options::metric = learned). PCX then works in the coordinates u = C^{-1/2} x: the parents
// are mapped there, a child is drawn there as Deb et al. draw it, and its step is mapped back
// by C^{1/2}. After every `interval` children, ranked best first in the island's order, C moves
// towards the second moment of the best half's steps (Hansen, "The CMA Evolution Strategy: A
// Tutorial", 2016, eq. (30): the rank-mu update, weights eq. (49), rate eq. (53)):
//   C <- (1 - c) C + c * n / (sum_i w_i |y_i|^2) * sum_i w_i (C^{1/2} y_i)(C^{1/2} y_i)^T
// where y_i is child i's step from its index parent in u, in units of PCX's spread across d.
// Unlike CMA-ES the update is trace-normalised (only the shape of the selected steps moves C)
// and C keeps det 1: the scale stays PCX's, from the parents' spread; without that the metric
// ran away (condition 1e16) when the best point stalled. On a quadratic valley C turns towards
// the inverse Hessian's shape, so the children follow the valley whatever its orientation.
// The root R (R R^T = C) is either the symmetric C^{1/2}, which turns with the problem, or the
// lower Cholesky factor L (ga_options::metric_root_kind); both keep rotation invariance in
// distribution (see metric_root), and "C^{1/2}" below means whichever root is configured.
// Cost: O(n) per recorded child (the island hands over C^{1/2} y, which the child's creation
// computed), O(mu n^2) per update (the rank-mu product), a decomposition every
// max(1, 1 / (10 n c)) updates (CMA-ES's lazy rule) times `lazy`: symmetric, an n x n
// eigen-decomposition and the two roots formed from it as symmetric squares W W^T (one triangle
// each); cholesky, one LLT (n^3 / 3), with the eigen-decomposition only when C's condition
// must be bounded.
#pragma once

#include <Eigen/Core>
#include <iosfwd>
#include <span>

#include "kinevo/ga/options.hpp"

namespace kinevo::ga {

class learned_metric {
 public:
  // interval: children per update (>= 2); rate: weight of an update, in (0, 1], or 0 for the
  // rank-mu rate of the weighted best half; lazy: decompositions lazy times rarer than
  // CMA-ES's rule (>= 1).
  void configure(int n, int interval, double rate, int lazy = 1,
                 metric_root root = metric_root::symmetric);
  // C = I, nothing recorded: the start of a run.
  void reset();
  // C kept, the record emptied: the start of a run that carries the metric over (the children
  // recorded in the last run were ranked on its problem).
  void restart() { count_ = 0; }

  // The root as a full matrix (cholesky: L with its upper triangle zero).
  const Eigen::MatrixXd& root() const { return root_; }
  // x = C^{1/2} u and u = C^{-1/2} x (cholesky: a triangular product and a triangular solve).
  void to_x(const Eigen::Ref<const Eigen::VectorXd>& u, Eigen::Ref<Eigen::VectorXd> x) const;
  void to_u(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> u) const;
  // Changes whenever root() and inverse_root() may have: points mapped to u under one epoch
  // stay valid until it changes (the island keeps its members' u so).
  long long epoch() const { return epoch_; }
  int interval() const { return interval_; }
  double rate() const { return rate_; }

  // Records a child's normalised step y (in u) by |y|^2 and C^{1/2} y (the island has it from
  // the child's creation, under the current root), and the child's value and violation.
  void record(double y_squared_norm, const Eigen::Ref<const Eigen::VectorXd>& root_y, double f,
              double v);
  bool full() const { return count_ == interval_; }
  double value(int k) const { return f_[k]; }
  double violation(int k) const { return v_[k]; }
  // The recorded children's indices, best first (island's order): updates C and empties the
  // record.
  void update(std::span<const int> best_first);

  // Condition number of C (largest over smallest eigenvalue) at the last decomposition
  // (cholesky: the LLT's reciprocal-condition estimate in the 1-norm, inverted).
  double condition() const { return condition_; }

  // State as text (hex floats), and back (sizes must match the configuration).
  void save(std::ostream& os) const;
  void load(std::istream& is);

 private:
  void decompose();
  bool decompose_symmetric();
  bool decompose_cholesky();
  static void symmetric_square(const Eigen::MatrixXd& w, Eigen::MatrixXd& out);

  int n_ = 0;
  metric_root kind_ = metric_root::symmetric;
  int interval_ = 0;
  int mu_ = 0;
  double rate_ = 0.0;
  int decompose_every_ = 1;
  int updates_since_ = 0;
  int count_ = 0;
  Eigen::VectorXd weights_;       // mu_ log weights, summing to 1
  Eigen::MatrixXd c_;             // C, its lower triangle (det 1 at each decomposition)
  Eigen::MatrixXd root_;          // C^{1/2} at the last decomposition
  Eigen::MatrixXd inverse_root_;  // symmetric: C^{-1/2}; cholesky: unused (empty)
  Eigen::MatrixXd root_steps_;    // n x interval_: recorded C^{1/2} y
  Eigen::VectorXd squared_;       // their |y|^2
  Eigen::VectorXd f_, v_;         // their values and violations
  Eigen::MatrixXd weighted_;      // n x mu_: sqrt(w_i) C^{1/2} y_i of an update
  double condition_ = 1.0;
  long long epoch_ = 0;
};

}  // namespace kinevo::ga
