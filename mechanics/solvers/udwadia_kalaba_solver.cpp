#include "kinevo/mechanics/solvers/detail/udwadia_kalaba_solver.hpp"

#include <fmt/format.h>

#include <Eigen/QR>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string udwadia_kalaba_solver::name() const {
  return "uk";
}

acceleration_result udwadia_kalaba_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints();
  const Eigen::MatrixXd a_hat = mf.right_solve_upper(s.jacobian);
  const Eigen::VectorXd residual = s.rhs - s.jacobian * a_f;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(options_.rank_tolerance);
  cod.compute(a_hat);
  // Minimum-norm least-squares solution: y = (A L^-T)^+ (b - A a_f).
  const Eigen::VectorXd y = cod.solve(residual);
  r.acceleration = a_f + mf.solve_upper(y);
  r.rank = static_cast<int>(cod.rank());
  set_constraint_force(s, a_f, r);
  if (r.rank < m) {
    // Name the dependent rows the same way GIGSP does, for side-by-side diagnostics.
    const auto g =
        orthonormalize_rows(a_hat, s.rhs, options_.rank_tolerance, options_.consistency_tolerance,
                            options_.degenerate_tolerance);
    r.redundant = g.redundant;
    r.inconsistent = g.inconsistent;
    if (!r.inconsistent.empty()) {
      r.status = solve_status::least_squares;
      r.message = fmt::format(
          "uk: the constraints are inconsistent ({} disagree with earlier rows); the "
          "acceleration is a least-squares compromise that satisfies none of them exactly",
          row_names(s, r.inconsistent));
    }
  }
  return r;
}

}  // namespace kinevo::mechanics
