#include "kinevo/mechanics/dynamics/detail/qtz_state.hpp"

#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_solver_options.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

namespace {

// p = B q needs Phi(q, t): nonholonomic rows have no position form to recover q from.
const model& holonomic_only(const model& m) {
  require_holonomic(m, formulation_kind::qtz_state, "the positions are recovered from Phi = 0");
  return m;
}

}  // namespace

qtz_state_formulation::qtz_state_formulation(const model& m, const formulation_options& options)
    : reduced_coordinates(holonomic_only(m), options), solver_(qtz_solver_options(options)) {
  report_.name = to_string(formulation_kind::qtz_state);
}

Eigen::MatrixXd qtz_state_formulation::choose_basis(const Eigen::VectorXd& q, double t) {
  Eigen::MatrixXd jacobian = model_.position_jacobian(q, t);
  qtz_decomposition d = decompose_qtz(jacobian, options_.rank_tolerance, workspace_);
  // The basis is re-chosen after every step (rebase_wanted), so counting those would only count
  // steps: a re-base is counted when the rank of Phi_q changes (a singular configuration),
  // which changes the number of integrated coordinates.
  if (rank_ >= 0 && d.rank != rank_) ++report_.repartitions;
  rank_ = d.rank;
  // B = Q2^T M rather than the paper's Q2^T: then p'' = Q2^T M q'' = Q2^T (g + Phi_q^T lambda)
  // = Q2^T g (eq. 47's orthogonalised equation) at the basis state, i.e. B M^-1 Phi_q^T = 0 and
  // the constraint force does not enter p'' to first order. Near a singular configuration the
  // stage accelerations carry range-space parts of order one from round-off-sized drift
  // (Q1^ ~ 1/sigma_min); with B = Q2^T they leak into p'' through M' = Q2^T M Q1^ and cost
  // 1.5e-5 of the energy at the first flat crossing of Yoo's parallelogram, with Q2^T M 9e-12.
  // Both complement the rows of Phi_q ([Phi_q; B] is regular since Q2^T M Q2 is), which is all
  // the recovery of q and q' (eq. 55) needs.
  // The next step's first stage solves at this q (the recovery returns it unchanged): the
  // solver takes this decomposition when its A equals Phi_q exactly.
  model_.evaluate(q, Eigen::VectorXd::Zero(q.size()), t, system_);
  Eigen::MatrixXd basis =
      system_.mass_is_diagonal
          ? Eigen::MatrixXd(d.q2.transpose() * system_.mass.diagonal().asDiagonal())
          : Eigen::MatrixXd(d.q2.transpose() * system_.mass);
  // Moved in (B is formed first): a copy of its dense matrices cost more than the basis.
  solver_.offer(std::move(jacobian), std::move(d));
  return basis;
}

bool qtz_state_formulation::rebase_wanted(const Eigen::VectorXd& /*q*/, double /*t*/) {
  // The paper decomposes Phi_q again after every computational step.
  return true;
}

}  // namespace kinevo::mechanics
