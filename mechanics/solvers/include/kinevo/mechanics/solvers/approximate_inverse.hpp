// GIGSP with a reused generalized inverse (generalized-inverse dissertation (GIGSP), section
// 4.3.3): with M = L L^T, the exact GIGSP acceleration is (eq. 2.23)
//   a = a_f + L^-T (A L^-T)^+ (b - A a_f),
// and between exact steps the generalized inverse G = L^-T (A L^-T)^+ of the last exact step is
// kept and used with the current a_f = M^-1 f, A and b (eq. 2.43 with the generalized inverse
// "of the previous instant", b* the Baumgarte-compensated right-hand side when the simulation
// applies it):
//   a ~ a_f + G_old (b* - A a_f).
// The result is approximate by design: A a = b* holds only to the change of A L^-T since the
// exact step, which the compensation (Baumgarte on b, or the projection after each step)
// controls. The kept G lags the configuration by up to k steps, so the integration is only
// first-order accurate in h k whatever the integrator (docs/formulations.md, "reuse": the
// energy deviation halves with h k). Holonomic constraints only: the dissertation's
// Figs. 4.17-4.19 show the method failing with a nonholonomic row.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"

namespace kinevo::mechanics {

class approximate_inverse_solver final : public acceleration_solver {
 public:
  // `options`: the GIGSP row tolerances of the exact steps (rank, consistency, degenerate).
  explicit approximate_inverse_solver(const direct_solver_options& options = {})
      : options_(options) {}
  std::string name() const override { return "gigsp-reuse"; }
  // Exact GIGSP (Gram-Schmidt on the rows of A L^-T, its diagnostics: rank, redundant and
  // inconsistent rows by name) when an exact inverse is due, the kept inverse otherwise. The
  // approximate solves report status ok, the rank and redundant rows of the last exact step,
  // and no message.
  acceleration_result solve(const constrained_system& system) override;

  // The next solve computes the exact generalized inverse and keeps it.
  void request_exact() { exact_due_ = true; }
  // Computes and keeps the exact generalized inverse at `system` now (the formulation calls it
  // at accepted states, so that a trial stage of a rejected step never supplies it). false
  // when that fails (M not positive definite, inconsistent rows): the exact inverse is then
  // still due, and the next solve reports why, naming the rows.
  bool refresh(const constrained_system& system);
  bool exact_due() const { return exact_due_; }
  // Exact generalized inverses computed so far (refused exact solves not counted).
  long long exact_inverses() const { return exact_inverses_; }

 private:
  direct_solver_options options_;
  bool exact_due_ = true;  // the first solve is exact
  long long exact_inverses_ = 0;
  // G = L^-T (A_1 L^-T)^+ of the last exact step (n x m; zero columns for the rows GIGSP
  // dropped as redundant or degenerate), with that step's rank and redundant rows.
  Eigen::MatrixXd inverse_;
  int rank_ = 0;
  std::vector<int> redundant_;
};

}  // namespace kinevo::mechanics
