#include "kinevo/mechanics/solvers/null_space_projection.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <Eigen/QR>
#include <algorithm>
#include <optional>

#include "kinevo/mechanics/solvers/detail/unblocked_llt.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_pseudo_inverse.hpp"

namespace kinevo::mechanics {

namespace {

Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> decompose(const Eigen::MatrixXd& a,
                                                                  double rank_tolerance) {
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;
  cod.setThreshold(rank_tolerance);
  cod.compute(a);
  return cod;
}

// The sparse path is taken only when every row of A is this factor clear of the rank tolerance
// (sparse_pseudo_inverse::factor): between the two the dense rank decision stays in charge.
constexpr double projection_sparse_margin = 1e3;
// Columns of P_N chosen at an earlier solve are kept while P_T^T M P_T stays within this factor
// of its reciprocal condition when they were chosen; below it they are chosen again.
constexpr double reselect_ratio = 0.1;
// M11's reciprocal condition estimate (Hager's, through solves with the factor: as dear as the
// factorisation itself on the 50-link chain) is made every rcond_check_every solves (10 RK4
// steps), and at once when (min L_ii / max L_ii)^2, which every factorisation gives, has fallen
// below reselect_ratio times its value at the last estimate: the check of coordinate
// partitioning's partition (docs/formulations.md) done the same way.
constexpr int rcond_check_every = 40;

// Like the solvers' sparse Gram path: below ~8 rows the dense factorisations are as fast.
bool projection_sparse_worthwhile(const constrained_system& s) {
  const auto m = static_cast<double>(s.constraints());
  const auto n = static_cast<double>(s.coordinates());
  return m >= 8 && !s.jacobian_pattern.empty() &&
         static_cast<double>(s.jacobian_pattern.size()) <= 0.25 * m * n;
}

// Lends a kept matrix's storage to another matrix for a scope (swaps, no copy, both ways).
class lent_storage {
 public:
  lent_storage(Eigen::MatrixXd& kept, Eigen::MatrixXd& user) : kept_(kept), user_(user) {
    user_.swap(kept_);
  }
  ~lent_storage() { user_.swap(kept_); }
  lent_storage(const lent_storage&) = delete;
  lent_storage& operator=(const lent_storage&) = delete;

 private:
  Eigen::MatrixXd& kept_;
  Eigen::MatrixXd& user_;
};

// f - M q'' (a diagonal M as a diagonal).
Eigen::VectorXd applied_minus_inertia(const constrained_system& s, const Eigen::VectorXd& qdd) {
  if (s.mass_is_diagonal) return s.force - s.mass.diagonal().cwiseProduct(qdd);
  return s.force - s.mass * qdd;
}

}  // namespace

Eigen::MatrixXd null_space_projector(const Eigen::MatrixXd& jacobian, double rank_tolerance) {
  const Eigen::Index n = jacobian.cols();
  if (jacobian.rows() == 0) return Eigen::MatrixXd::Identity(n, n);
  const auto cod = decompose(jacobian, rank_tolerance);
  // Eq. 11 with I_R = A^+ (eq. 10 is A^+ only when A has full row rank).
  return Eigen::MatrixXd::Identity(n, n) - cod.pseudoInverse() * jacobian;
}

std::vector<int> independent_null_space_columns(const Eigen::MatrixXd& projector, int k) {
  std::vector<int> columns;
  if (k <= 0) return columns;
  // Column-pivoted QR takes the columns of P_N in order of their remaining norm: the first k
  // are the best-conditioned set spanning the null space (P_N has rank k).
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(projector);
  const auto& p = qr.colsPermutation().indices();
  columns.assign(p.data(), p.data() + k);
  std::sort(columns.begin(), columns.end());
  return columns;
}

std::string null_space_projection_solver::name() const {
  return "projection";
}

acceleration_result null_space_projection_solver::solve(const constrained_system& s) {
  mass_factor mf;
  Eigen::VectorXd a_f;
  lambda_.resize(0);
  if (auto done = start_solve(s, name(), mf, a_f)) {
    lambda_ = Eigen::VectorXd::Zero(s.constraints());
    return *done;
  }
  if (auto sparse = solve_sparse(s, a_f)) return *sparse;
  acceleration_result r;
  const Eigen::Index n = s.coordinates(), m = s.constraints();
  const auto cod = decompose(s.jacobian, options_.rank_tolerance);
  const auto rank = static_cast<Eigen::Index>(cod.rank());
  r.rank = static_cast<int>(rank);
  const Eigen::MatrixXd i_r = cod.pseudoInverse();  // eq. 10, n x m
  const Eigen::VectorXd particular = i_r * s.rhs;   // I_R b: minimum-norm solution of A q'' = b
  if (rank < m) {
    // Dependent rows: b must lie in the range of A at this rank, or no acceleration satisfies
    // the set. The rows are classified (and named) as GIGSP does.
    const Eigen::VectorXd residual = s.jacobian * particular - s.rhs;
    const double b_scale = 1.0 + s.rhs.cwiseAbs().maxCoeff();
    const gram_schmidt_rows gs =
        orthonormalize_rows(mf.right_solve_upper(s.jacobian), s.rhs, options_.rank_tolerance,
                            options_.consistency_tolerance, options_.degenerate_tolerance);
    r.redundant = gs.redundant;
    std::vector<int> bad = gs.inconsistent;
    if (bad.empty() && residual.cwiseAbs().maxCoeff() > options_.consistency_tolerance * b_scale) {
      // The two rank decisions disagree at the margin: name the rows A^+ cannot satisfy.
      for (Eigen::Index i = 0; i < m; ++i) {
        if (std::abs(residual[i]) > options_.consistency_tolerance * b_scale) {
          bad.push_back(static_cast<int>(i));
        }
      }
    }
    if (!bad.empty()) {
      r.inconsistent = bad;
      r.redundant.erase(
          std::remove_if(r.redundant.begin(), r.redundant.end(),
                         [&](int i) { return std::find(bad.begin(), bad.end(), i) != bad.end(); }),
          r.redundant.end());
      r.status = solve_status::inconsistent;
      r.message = fmt::format(
          "projection: inconsistent constraints: {} {} dependent on other constraints but "
          "{} right-hand side is not in the range of the Jacobian (rank {} of {} rows), so no "
          "acceleration satisfies the set; correct the model",
          row_names(s, bad), bad.size() == 1 ? "is" : "are", bad.size() == 1 ? "its" : "their",
          rank, m);
      return r;
    }
  }
  const Eigen::Index k = n - rank;
  Eigen::VectorXd qdd = particular;
  if (k > 0) {
    const Eigen::MatrixXd p_n = Eigen::MatrixXd::Identity(n, n) - i_r * s.jacobian;  // eq. 11
    const std::vector<int> columns = independent_null_space_columns(p_n, static_cast<int>(k));
    Eigen::MatrixXd p_t(n, k);  // eq. 12: P_T = P_N B
    for (Eigen::Index j = 0; j < k; ++j) p_t.col(j) = p_n.col(columns[static_cast<std::size_t>(j)]);
    // Eqs. 16-19: M11 z'' = P_T^T (f - M I_R b), M11 = P_T^T M P_T.
    const Eigen::MatrixXd m_p_t = s.mass * p_t;
    const Eigen::MatrixXd m11 = p_t.transpose() * m_p_t;
    Eigen::LLT<Eigen::MatrixXd> llt(m11);
    if (llt.info() != Eigen::Success) {
      r.status = solve_status::singular;
      r.message = fmt::format(
          "projection: the reduced mass matrix P_T^T M P_T ({} x {}) is not positive definite", k,
          k);
      return r;
    }
    const Eigen::VectorXd z = llt.solve(p_t.transpose() * (s.force - s.mass * particular));
    qdd += p_t * z;  // eq. 14
  }
  r.acceleration = qdd;
  // Eq. 17 with the sign fixed: A^T lambda = f - M q''.
  lambda_ = i_r.transpose() * (s.force - s.mass * qdd);
  set_constraint_force(s, a_f, r);
  return r;
}

// P_T and the Cholesky factor of M11 = P_T^T M P_T (eqs. 12, 16-19). The columns B are those
// column-pivoted QR of the dense P_N chooses (as on the dense path), chosen again when their
// number changes or M11 has lost conditioning since; false when M11 is not positive definite
// even for freshly chosen columns (the dense path then decides and reports it).
bool null_space_projection_solver::sparse_reduced_mass(const constrained_system& s,
                                                       detail::unblocked_llt& llt) {
  const auto k = static_cast<std::size_t>(s.coordinates() - s.constraints());
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool fresh = columns_.size() != k || attempt > 0;
    if (fresh) {
      columns_ = independent_null_space_columns(
          null_space_projector(s.jacobian, options_.rank_tolerance), static_cast<int>(k));
      ++column_selections_;
    }
    if (s.mass_is_diagonal) {
      projector_.columns_implicit(pseudo_inverse_, columns_);
    } else {
      projector_.columns(pseudo_inverse_, columns_);
    }
    // M11 straight into the factor's storage; its L1 norm (for rcond) taken before the factor
    // overwrites it when the schedule asks for the estimate.
    projector_.reduced_mass(pseudo_inverse_, s, llt.storage());
    const bool scheduled = fresh || solves_since_check_ + 1 >= rcond_check_every;
    if (scheduled) llt.norm_of_stored();
    llt.factor_in_place();
    if (llt.info() != Eigen::Success) continue;
    const double pivots = llt.pivot_ratio();
    const bool check = fresh || ++solves_since_check_ >= rcond_check_every ||
                       pivots < reselect_ratio * checked_pivot_ratio_;
    if (!check) return true;
    solves_since_check_ = 0;
    checked_pivot_ratio_ = pivots;
    // Off the schedule (the pivot ratio fell), M11 is formed again for its norm.
    const double rcond =
        scheduled ? llt.rcond() : llt.rcond_of(projector_.reduced_mass(pseudo_inverse_, s));
    if (fresh) selected_rcond_ = rcond;
    if (rcond >= reselect_ratio * selected_rcond_) return true;
  }
  columns_.clear();
  return false;
}

// Eqs. 10-19 for a large sparse A of full row rank, clear of the rank tolerance: I_R = A^+
// = A^T (A A^T)^-1 from the sparse LDL^T of A A^T instead of a complete orthogonal decomposition
// of A, P_T column by column; nullopt sends the solve to the dense path.
std::optional<acceleration_result> null_space_projection_solver::solve_sparse(
    const constrained_system& s, const Eigen::VectorXd& a_f) {
  if (!options_.allow_sparse || !projection_sparse_worthwhile(s)) return std::nullopt;
  if (!pseudo_inverse_.factor(s.jacobian, s.jacobian_pattern,
                              projection_sparse_margin * options_.rank_tolerance)) {
    return std::nullopt;
  }
  acceleration_result r;
  r.rank = static_cast<int>(s.constraints());
  Eigen::VectorXd qdd = pseudo_inverse_.solve(s.rhs);  // I_R b
  if (s.coordinates() > s.constraints()) {
    detail::unblocked_llt llt;
    const lent_storage lent(factor_storage_, llt.storage());
    if (!sparse_reduced_mass(s, llt)) return std::nullopt;
    const Eigen::VectorXd z =
        llt.solve(projector_.transpose_times(pseudo_inverse_, applied_minus_inertia(s, qdd)));
    qdd += projector_.times(pseudo_inverse_, z);  // eq. 14
  }
  r.acceleration = qdd;
  // Eq. 17: lambda = I_R^T (f - M q'') = (A A^T)^-1 A (f - M q'').
  lambda_ = pseudo_inverse_.gram_solve(pseudo_inverse_.matrix() * applied_minus_inertia(s, qdd));
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
