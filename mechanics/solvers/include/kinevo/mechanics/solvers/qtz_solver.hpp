// Constrained accelerations through the QTZ decomposition of A (Del Citto, Pennestri and Vita,
// "Coordinates reduction and numerical integration of models of constrained multibody
// systems", eqs. 15-35 and 54-67): with A^T P = Q [T 0; 0 0] Z, the r combined rows C A have
// full row rank, and
//   gamma'' = C b                                   (eq. 62)
//   M^ p'' = Q2^T (f - M Q1^ gamma''),  M^ = Q2^T M Q2   (eqs. 64-66; LLT, M^ is SPD with M)
//   q'' = Q1^ gamma'' + Q2 p''                       (eq. 67; Q2^ = Q2)
// The m - r dropped combinations of b must vanish (redundant rows); otherwise the set is refused
// as inconsistent, naming the rows that carry the disagreement. Works for any A (nonholonomic
// rows too). constraint_force = M (q'' - a_f).
#pragma once

#include <Eigen/Cholesky>
#include <optional>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

// M Q2 and the LLT of M^ = Q2^T M Q2 (eq. 66) of a decomposition, with the M they were formed
// from (bit for bit: only the diagonal when mass_is_diagonal).
struct qtz_reduced_mass_factor {
  Eigen::MatrixXd mass;
  bool mass_is_diagonal = false;
  Eigen::MatrixXd m_q2;
  Eigen::LLT<Eigen::MatrixXd> llt;
};
// The solver's own computation (M Q2 without the dense product when M is diagonal, then
// qtz_reduced_mass and its LLT), for `q2` = Q2 of a decomposition of s.jacobian.
qtz_reduced_mass_factor factor_reduced_mass(const constrained_system& s, const Eigen::MatrixXd& q2);

class qtz_solver final : public acceleration_solver {
 public:
  // Reads rank_tolerance and consistency_tolerance.
  explicit qtz_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  // A decomposition of `jacobian` made elsewhere with the same rank_tolerance (a formulation's
  // correction after a step, at the state the next step starts from): the next solve takes it
  // when its A equals `jacobian` exactly, instead of decomposing the same matrix again. Both taken
  // by value: a caller done with them moves them in rather than copying their dense matrices.
  // `mass`: factor_reduced_mass of d.q2 formed there too (qtz-orthogonal's velocity correction),
  // taken with the decomposition when the solve's M equals its M bit for bit.
  void offer(Eigen::MatrixXd jacobian, qtz_decomposition d,
             std::optional<qtz_reduced_mass_factor> mass = std::nullopt);

 private:
  // `mass`: the offered reduced mass when the offered decomposition is taken, else empty.
  qtz_decomposition decompose(const Eigen::MatrixXd& jacobian,
                              std::optional<qtz_reduced_mass_factor>& mass);
  direct_solver_options options_;
  qtz_workspace workspace_;  // the sparse path's analysis of Phi_q's pattern, step to step
  Eigen::MatrixXd offered_jacobian_;
  qtz_decomposition offered_;
  std::optional<qtz_reduced_mass_factor> offered_mass_;
  bool has_offer_ = false;
};

}  // namespace kinevo::mechanics
