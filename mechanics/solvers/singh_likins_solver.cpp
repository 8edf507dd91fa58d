#include "kinevo/mechanics/solvers/detail/singh_likins_solver.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/SVD>

#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

std::string singh_likins_solver::name() const {
  return "sl";
}

acceleration_result singh_likins_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints(), n = s.coordinates();
  // Eq. 4.2: A = U S V^T = [U_1 U_2] S [V_1 V_2]^T; V_2 spans the null space of A.
  Eigen::BDCSVD<Eigen::MatrixXd> svd(s.jacobian, Eigen::ComputeThinU | Eigen::ComputeFullV);
  svd.setThreshold(options_.rank_tolerance);
  const int rank = static_cast<int>(svd.rank());
  const Eigen::VectorXd a_p = svd.solve(s.rhs);  // A^+ b
  Eigen::VectorXd a = a_p;
  if (rank < n) {
    // Eq. 4.1: a = A^+ b + V_2 (V_2^T M V_2)^-1 (V_2^T f - V_2^T M A^+ b).
    const Eigen::MatrixXd v2 = svd.matrixV().rightCols(n - rank);
    const Eigen::MatrixXd mv2 = s.mass * v2;
    const Eigen::LLT<Eigen::MatrixXd> k(v2.transpose() * mv2);
    a += v2 * k.solve(v2.transpose() * s.force - mv2.transpose() * a_p);
  }
  r.acceleration = a;
  r.rank = rank;
  set_constraint_force(s, a_f, r);
  if (rank < m) {
    const auto g =
        orthonormalize_rows(mf.right_solve_upper(s.jacobian), s.rhs, options_.rank_tolerance,
                            options_.consistency_tolerance, options_.degenerate_tolerance);
    r.redundant = g.redundant;
    r.inconsistent = g.inconsistent;
    if (!r.inconsistent.empty()) {
      r.status = solve_status::least_squares;
      r.message = fmt::format(
          "sl: the constraints are inconsistent ({} disagree with earlier rows); A^+ b makes "
          "the acceleration a least-squares compromise",
          row_names(s, r.inconsistent));
    }
  }
  return r;
}

}  // namespace kinevo::mechanics
