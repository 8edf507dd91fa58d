#include "kinevo/mechanics/solvers/qtz_solver.hpp"

#include "kinevo/mechanics/solvers/detail/unblocked_llt.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

namespace {

// M x without forming the product of a dense diagonal matrix.
Eigen::MatrixXd mass_times_columns(const constrained_system& s, const Eigen::MatrixXd& x) {
  if (s.mass_is_diagonal) return s.mass.diagonal().asDiagonal() * x;
  return s.mass * x;
}

// Whether `f` was formed from s's M: the same bits, so its M Q2 and LLT are those a fresh
// factor_reduced_mass would give.
bool same_mass(const qtz_reduced_mass_factor& f, const constrained_system& s) {
  if (f.mass_is_diagonal != s.mass_is_diagonal) return false;
  const auto same = [](const double* a, const double* b, Eigen::Index size) {
    return std::memcmp(a, b, static_cast<std::size_t>(size) * sizeof(double)) == 0;
  };
  if (s.mass_is_diagonal) {
    const Eigen::VectorXd diagonal = s.mass.diagonal();
    return f.mass.size() == diagonal.size() &&
           same(f.mass.data(), diagonal.data(), diagonal.size());
  }
  return f.mass.rows() == s.mass.rows() && f.mass.cols() == s.mass.cols() &&
         same(f.mass.data(), s.mass.data(), s.mass.size());
}

// m - r rows whose removal leaves rank r: the complement of r columns of C that form a
// non-singular block (A_K = C_K^T T^T Q1^T has rank r exactly when C_K does), chosen by QR
// with column pivoting of C.
std::vector<int> redundant_rows(const Eigen::MatrixXd& combination) {
  const auto r = combination.rows(), m = combination.cols();
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(combination);
  std::vector<int> rows;
  for (Eigen::Index k = r; k < m; ++k)
    rows.push_back(static_cast<int>(qr.colsPermutation().indices()[k]));
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The rows carrying the inconsistency e (entries of at least a tenth of the largest one),
// largest first.
std::vector<int> carrying_rows(const Eigen::VectorXd& e) {
  const double largest = e.cwiseAbs().maxCoeff();
  std::vector<int> rows;
  for (Eigen::Index i = 0; i < e.size(); ++i) {
    if (std::abs(e[i]) >= 0.1 * largest) rows.push_back(static_cast<int>(i));
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [&](int a, int b) { return std::abs(e[a]) > std::abs(e[b]); });
  return rows;
}

}  // namespace

qtz_reduced_mass_factor factor_reduced_mass(const constrained_system& s,
                                            const Eigen::MatrixXd& q2) {
  qtz_reduced_mass_factor f;
  f.mass_is_diagonal = s.mass_is_diagonal;
  f.mass = s.mass_is_diagonal ? Eigen::MatrixXd(s.mass.diagonal()) : s.mass;
  f.m_q2 = mass_times_columns(s, q2);
  // Eigen's unblocked kernel, as for the projection method's M11 (detail/unblocked_llt.hpp):
  // compute() blocks from 32 columns with GEMM updates whose packing costs more at these sizes.
  // Below 32 columns compute() takes the same kernel, so small models keep their bits.
  detail::unblocked_llt llt;
  llt.compute_unblocked(qtz_reduced_mass(q2, f.m_q2));
  f.llt = std::move(static_cast<Eigen::LLT<Eigen::MatrixXd>&>(llt));
  return f;
}

void qtz_solver::offer(Eigen::MatrixXd jacobian, qtz_decomposition d,
                       std::optional<qtz_reduced_mass_factor> mass) {
  offered_jacobian_ = std::move(jacobian);
  offered_ = std::move(d);
  offered_mass_ = std::move(mass);
  has_offer_ = true;
}

qtz_decomposition qtz_solver::decompose(const Eigen::MatrixXd& jacobian,
                                        std::optional<qtz_reduced_mass_factor>& mass) {
  const bool take = has_offer_ && offered_jacobian_.rows() == jacobian.rows() &&
                    offered_jacobian_.cols() == jacobian.cols() && offered_jacobian_ == jacobian;
  has_offer_ = false;
  // Released either way: a decomposition still holding the workspace's sparse factor makes the
  // next one start a fresh factor (and analyse the pattern again).
  qtz_decomposition offered = std::move(offered_);
  offered_ = qtz_decomposition{};
  std::optional<qtz_reduced_mass_factor> offered_mass = std::move(offered_mass_);
  offered_mass_.reset();
  if (take) {
    mass = std::move(offered_mass);
    return offered;
  }
  return decompose_qtz(jacobian, options_.rank_tolerance, workspace_);
}

std::string qtz_solver::name() const {
  return "qtz";
}

acceleration_result qtz_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  if (auto done = start_solve(s, name(), mf, a_f)) return *done;
  acceleration_result r;
  const int m = s.constraints();
  std::optional<qtz_reduced_mass_factor> offered_mass;
  const qtz_decomposition d = decompose(s.jacobian, offered_mass);
  r.rank = d.rank;
  // Eq. 62: the right-hand side of the r combined constraints.
  const Eigen::VectorXd gamma = d.combination * s.rhs;
  if (d.rank < m) {
    // The dropped combinations Z2 P^T b (rows r..m-1 of Z P^T) must vanish. Z2 is unique only up
    // to a rotation when m - r > 1, so its rows' weights are arbitrary; their norm equals that
    // of e = b - C^T C b (Z P^T is orthogonal), which is the same for every choice and whose
    // entries say which rows disagree. |e| bounds every single dropped combination.
    const Eigen::VectorXd e = s.rhs - d.combination.transpose() * gamma;
    const double scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
    if (e.norm() > options_.consistency_tolerance * scale) {
      std::vector<int> rows = carrying_rows(e);
      r.status = solve_status::inconsistent;
      r.message = fmt::format(
          "qtz: inconsistent constraints: {} {} dependent ({} of {} rows independent) but the "
          "right-hand sides disagree by {:.3g}, so no acceleration satisfies the set; correct "
          "the model",
          row_names(s, rows), rows.size() == 1 ? "is" : "are", d.rank, m, e.norm());
      std::sort(rows.begin(), rows.end());
      r.inconsistent = std::move(rows);
      return r;
    }
    r.redundant = redundant_rows(d.combination);
  }
  // Eqs. 64-67: the particular part Q1^ gamma'' and the null-space part Q2 p''.
  Eigen::VectorXd a = d.q1_hat_times(gamma);
  const Eigen::Index k = d.q2.cols();
  if (k > 0) {
    // The offered M Q2 and LLT when formed from this M and Q2 (qtz-orthogonal's velocity
    // correction at this q): 460,000 instructions per RK4 step of its 50-link chain.
    const qtz_reduced_mass_factor f = offered_mass && same_mass(*offered_mass, s)
                                          ? std::move(*offered_mass)
                                          : factor_reduced_mass(s, d.q2);
    const Eigen::MatrixXd& m_q2 = f.m_q2;
    const Eigen::LLT<Eigen::MatrixXd>& llt = f.llt;
    if (llt.info() != Eigen::Success) return not_positive_definite(name());
    // Q2^T M Q1^ gamma'' = (M Q2)^T (Q1^ gamma''), M symmetric.
    const Eigen::VectorXd rhs = d.q2.transpose() * s.force - m_q2.transpose() * a;
    a += d.q2 * llt.solve(rhs);
  }
  r.acceleration = std::move(a);
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
