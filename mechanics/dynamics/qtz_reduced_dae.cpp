#include "kinevo/mechanics/dynamics/detail/qtz_reduced_dae.hpp"

#include <fmt/format.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kinevo/core/resource_error.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/mechanics/dynamics/detail/full_formulation.hpp"
#include "kinevo/mechanics/dynamics/detail/iteration_matrix_lu.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_solver_options.hpp"
#include "kinevo/mechanics/dynamics/detail/qtz_window_screen.hpp"
#include "kinevo/mechanics/dynamics/simulation.hpp"
#include "kinevo/mechanics/model/model.hpp"
#include "kinevo/mechanics/solvers/qtz_decomposition.hpp"

namespace kinevo::mechanics {

namespace {

// RAII over the SUNDIALS objects: each pointer type with the function that frees it.
struct context_deleter {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct vector_deleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct matrix_deleter {
  void operator()(SUNMatrix a) const { SUNMatDestroy(a); }
};
struct linear_solver_deleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct ida_deleter {
  void operator()(void* mem) const { IDAFree(&mem); }
};
using context_ptr = std::unique_ptr<std::remove_pointer_t<SUNContext>, context_deleter>;
using vector_ptr = std::unique_ptr<std::remove_pointer_t<N_Vector>, vector_deleter>;
using matrix_ptr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, matrix_deleter>;
using linear_solver_ptr =
    std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, linear_solver_deleter>;
using ida_ptr = std::unique_ptr<void, ida_deleter>;

template <class T>
T require(T p, const char* what) {
  // SUNDIALS could not allocate it or set it up: a system resource, not the user's input.
  if (p == nullptr) throw core::resource_error(fmt::format("SUNDIALS: could not create {}", what));
  return p;
}

void check(int flag, const char* call) {
  if (flag < 0) throw core::resource_error(fmt::format("SUNDIALS: {} failed ({})", call, flag));
}

// IDA's local error control at rtol gives global position errors of 5-20 rtol on the examples
// (double pendulum, slider-crank at t = 0.5 s), Dormand-Prince's about rtol: IDA gets
// rtol / 10 so that --rtol means about the same accuracy for both integrators.
constexpr double bdf_tolerance_factor = 0.1;
// Absolute tolerance of the integrated multipliers in the Newton convergence test.
constexpr double multiplier_atol = 1.0;
// When IDA fails near a singular configuration, the run goes on from IDA's last step with the
// windows recovery_widening times wider until the rank is restored, at most max_recoveries
// times per run (the parallelogram built from bodies uses it 2 or 3 times per 2 s run, the one
// in relative angles not).
constexpr double recovery_widening = 5.0;
constexpr int max_recoveries = 20;
// Near a singular configuration (the parallelogram lying flat) the smallest singular value
// sigma_r of Phi_q goes through zero, and positions within the Newton tolerance e of the
// constraints make the velocity constraint's direction uncertain by e / sigma_r: the error test
// then fails at any step size. A combination is therefore dropped while its singular value of
// the M-weighted Jacobian Phi_q M^-1/2 is below singular_window times the largest one, or its
// pivot of the unweighted QTZ decomposition below pivot_window times the largest one (the force
// it would carry is sigma_r lambda, small: lambda stays bounded through the crossing), and
// restored with a projection onto all constraints once both are back above.
// Why both (measured, 2 s, records every 1e-2 .. 1e-4 s): the two models differ in scaling,
// and neither criterion alone suits both. The unweighted pivots at 1e-3 alone: the model from
// bodies fails with records every 1e-2 s. The M-weighted window alone: 2e-3 makes the
// relative-angle model's velocity violation 5e-6 (records every 1e-4 s); 5e-3 .. 2e-2 spare the
// model from bodies all recoveries but cost the relative-angle model recoveries, energy (up to
// 1e-5) or violations up to 6e-7 in position and 7e-5 in velocity inside the window.
// Together (with the tolerance floors below): every run completes, |E - E0| / E0 <= 2.3e-7,
// position violation <= 8e-10.
constexpr double singular_window = 2e-3;
constexpr double pivot_window = 1e-3;
// Floors of the absolute tolerances of q and v as fractions of rtol times the size of the
// positions and of the largest speed so far (impl::set_tolerances). Measured on the
// parallelograms (2 s, records every 1e-2 .. 1e-4 s) and against full + Dormand-Prince
// (0.5 s): a position floor of 0.01 is again below the rounding noise near the flat
// configuration (corrector failures at t = 0.17); without a velocity floor records every
// 2e-4 s fail at t = 0.195 on the model from bodies; a velocity floor of 0.1 moves the double
// pendulum and the slider-crank to 9.3e-9 and 9.6e-9 from the reference (0.03: 7.4e-9, 6.1e-9).
constexpr double position_atol_factor = 0.1;
constexpr double velocity_atol_factor = 0.03;
// Steps for which the differenced part of the iteration matrix is reused (impl::jacobian).
constexpr long long jacobian_reuse_steps = 10;

Eigen::Map<Eigen::VectorXd> view(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
}

// IDA's linear solver: Eigen's LU on IDA's dense iteration matrix (iteration_matrix_lu.hpp:
// blocked dense LU, or KLU on a large sparse matrix). SUNDIALS' own dense LU (unblocked)
// took half the time of the 50-link chain (300 unknowns: IDA refactors about every second step
// as its step size follows the records). The SUNLinearSolver holds a pointer to the
// factorisation owned by impl.
SUNLinearSolver_Type lu_type(SUNLinearSolver /*s*/) {
  return SUNLINEARSOLVER_DIRECT;
}
SUNLinearSolver_ID lu_id(SUNLinearSolver /*s*/) {
  return SUNLINEARSOLVER_CUSTOM;
}

int lu_setup(SUNLinearSolver s, SUNMatrix a) {
  auto& lu = *static_cast<iteration_matrix_lu*>(s->content);
  const auto rows = static_cast<Eigen::Index>(SUNDenseMatrix_Rows(a));
  // A zero or non-finite pivot: recoverable for IDA (it retries with a smaller step).
  if (!lu.factorize(Eigen::Map<const Eigen::MatrixXd>(SUNDenseMatrix_Data(a), rows, rows))) {
    return SUNLS_LUFACT_FAIL;
  }
  return SUNLS_SUCCESS;
}

int lu_solve(SUNLinearSolver s, SUNMatrix /*a*/, N_Vector x, N_Vector b, double /*tol*/) {
  const auto& lu = *static_cast<const iteration_matrix_lu*>(s->content);
  auto out = view(x);
  out = lu.solve(Eigen::VectorXd(view(b)));
  return out.allFinite() ? SUNLS_SUCCESS : SUNLS_PACKAGE_FAIL_REC;
}

int lu_free(SUNLinearSolver s) {
  s->content = nullptr;  // owned by impl
  SUNLinSolFreeEmpty(s);
  return SUNLS_SUCCESS;
}

// SUNMatZero of the dense iteration matrix before every setup (IDALS, idaLsSetup; nothing else in
// IDA reads or writes the matrix but impl::jacobian and lu_setup): nothing. impl::jacobian assigns
// every entry that can be nonzero and clears the matrix itself when that set of entries changes
// (a new rank). Zeroing the 300 x 300 matrix of the 50-link chain at every setup, even as one
// memset, was 9 % of qtz-reduced's instructions there.
int keep_dense(SUNMatrix /*a*/) {
  return SUNMAT_SUCCESS;
}

// SUNDIALS' zeroing as one memset (qtz_reduced_dae::use_reference_assembly).
int zero_dense(SUNMatrix a) {
  std::fill_n(SUNDenseMatrix_Data(a), SUNDenseMatrix_LData(a), 0.0);
  return SUNMAT_SUCCESS;
}

SUNLinearSolver make_lu_solver(SUNContext ctx, iteration_matrix_lu& lu) {
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  s->ops->gettype = lu_type;
  s->ops->getid = lu_id;
  s->ops->setup = lu_setup;
  s->ops->solve = lu_solve;
  s->ops->free = lu_free;
  s->content = &lu;
  return s;
}

// Curtis-Powell-Reid grouping of the columns of a sparse Jacobian (rows_of[c]: the rows column
// c reaches, below row_count): greedily, in column order, each column joins the first group none
// of whose columns reaches one of its rows. A banded Jacobian of bandwidth w needs about w + 1
// groups.
std::vector<std::vector<int>> group_columns(const std::vector<std::vector<int>>& rows_of,
                                            Eigen::Index row_count) {
  std::vector<std::vector<int>> groups;
  std::vector<std::vector<char>> taken;  // per group: the rows its columns reach
  for (std::size_t c = 0; c < rows_of.size(); ++c) {
    const auto& rows = rows_of[c];
    std::size_t g = 0;
    for (; g < groups.size(); ++g) {
      const bool fits = std::none_of(rows.begin(), rows.end(), [&](int row) {
        return taken[g][static_cast<std::size_t>(row)] != 0;
      });
      if (fits) break;
    }
    if (g == groups.size()) {
      groups.emplace_back();
      taken.emplace_back(static_cast<std::size_t>(row_count), 0);
    }
    groups[g].push_back(static_cast<int>(c));
    for (int row : rows) taken[g][static_cast<std::size_t>(row)] = 1;
  }
  return groups;
}

// The number of eigenvalues of the tridiagonal matrix (diagonal a, off-diagonal b) below x:
// the negative pivots of the LDL^T factorisation of T - x I (Sylvester's law of inertia; the
// Sturm sequence of LAPACK's dstebz, with its pivot floor).
int eigenvalues_below(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double x,
                      double pivot_floor) {
  int count = 0;
  double d = 1.0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    d = a[i] - x - (i > 0 ? b[i - 1] * b[i - 1] / d : 0.0);
    if (std::abs(d) < pivot_floor) d = -pivot_floor;
    if (d < 0.0) ++count;
  }
  return count;
}

// The number of eigenvalues of the symmetric `gram` above `fraction` times its largest: one
// Householder tridiagonalisation, the largest eigenvalue by bisection of the Sturm count to
// round-off, and one count at the threshold. Only the count is needed: the QR iteration of
// all eigenvalues was 11 % of qtz-reduced's time on the 50-link chain.
int eigenvalues_above(const Eigen::MatrixXd& gram, double fraction) {
  const Eigen::Index m = gram.rows();
  if (m == 0) return 0;
  const Eigen::Tridiagonalization<Eigen::MatrixXd> tri(gram);
  const Eigen::VectorXd a = tri.diagonal();
  const Eigen::VectorXd b = tri.subDiagonal();
  double lo = 0.0, hi = 0.0, largest_b = 0.0;
  for (Eigen::Index i = 0; i < m; ++i) {
    const double radius =
        (i > 0 ? std::abs(b[i - 1]) : 0.0) + (i + 1 < m ? std::abs(b[i]) : 0.0);  // Gershgorin
    lo = i == 0 ? a[i] - radius : std::min(lo, a[i] - radius);
    hi = i == 0 ? a[i] + radius : std::max(hi, a[i] + radius);
    if (i + 1 < m) largest_b = std::max(largest_b, std::abs(b[i]));
  }
  const double pivot_floor =
      std::numeric_limits<double>::min() * std::max(1.0, largest_b * largest_b);
  const double eps = std::numeric_limits<double>::epsilon();
  for (int it = 0;
       it < 200 && hi - lo > 2.0 * eps * std::max(std::abs(lo), std::abs(hi)) + pivot_floor; ++it) {
    const double mid = 0.5 * (lo + hi);
    (eigenvalues_below(a, b, mid, pivot_floor) == m ? hi : lo) = mid;
  }
  return static_cast<int>(m) - eigenvalues_below(a, b, fraction * hi, pivot_floor);
}

}  // namespace

struct qtz_reduced_dae::impl {
  impl(const model& m, const formulation_options& fo, const simulation_options& so)
      : model_(m),
        options_(fo),
        n_(m.coordinates()),
        m_(m.constraints()),
        size_(2 * (n_ + m_)),
        dt_min_(so.dt_min) {
    // M is zero outside its diagonal blocks (mass_blocks; none listed when M is diagonal).
    for (int i = 0; i < n_; ++i) mass_entries_.emplace_back(i, i);
    for (const auto& [first, count] : m.mass_blocks()) {
      for (int i = first; i < first + count; ++i) {
        for (int k = first; k < first + count; ++k) {
          if (i != k) mass_entries_.emplace_back(i, k);
        }
      }
    }
  }

  // IDA's residual F(t, y, y') (the header's equations), called through the C callback.
  int residual(double t, N_Vector yy, N_Vector yp, N_Vector rr) {
    const auto y = view(yy), dy = view(yp);
    auto res = view(rr);
    q_ = y.segment(0, n_);
    v_ = y.segment(n_, n_);
    if (!q_.allFinite() || !v_.allFinite()) return 1;  // recoverable: IDA cuts the step
    model_.evaluate(q_, v_, t, system_);
    note_non_finite(system_, t);
    if (identity_) {
      psi_q_ = system_.jacobian;
    } else {
      psi_q_.noalias() = combination_ * system_.jacobian;  // r x n
    }
    const Eigen::MatrixXd& psi_q = psi_q_;
    // The multipliers enter through the derivatives of their integrals: lambda = Lambda',
    // mu = eta'.
    const auto lambda = dy.segment(2 * n_, m_), mu = dy.segment(2 * n_ + m_, m_);
    const auto big_lambda = y.segment(2 * n_, m_), eta = y.segment(2 * n_ + m_, m_);
    res.segment(0, n_) = dy.segment(0, n_) - v_ + psi_q.transpose() * mu.head(rank_);
    res.segment(n_, n_) =
        system_.mass * dy.segment(n_, n_) + psi_q.transpose() * lambda.head(rank_) - system_.force;
    if (m_ > 0) {
      const Eigen::VectorXd phi = model_.position_violation(q_, t);
      const Eigen::VectorXd phi_v = model_.velocity_violation(q_, v_, t);
      res.segment(2 * n_, rank_) = identity_ ? phi : Eigen::VectorXd(combination_ * phi);
      res.segment(2 * n_ + rank_, m_ - rank_) = big_lambda.tail(m_ - rank_);
      res.segment(2 * n_ + m_, rank_) = identity_ ? phi_v : Eigen::VectorXd(combination_ * phi_v);
      res.segment(2 * n_ + m_ + rank_, m_ - rank_) = eta.tail(m_ - rank_);
    }
    return res.allFinite() ? 0 : 1;
  }

  // The model's entries that are not finite at the state just evaluated into system_ (a
  // constraint outside its domain, x - sqrt(1.5 - y) past y = 1.5), kept with the time for the
  // message of a failed step; IDA cuts the step and tries again, so they only matter when the
  // step fails.
  void note_non_finite(const constrained_system& s, double t) {
    // A finite sum has finite terms: one vectorised pass over each array; the entry-wise check
    // (a sixth of the 50-link chain's time: 4 n evaluations per iteration matrix) only when a
    // sum is not finite (a NaN or infinity, or finite entries whose sum overflows).
    const bool sums_finite = std::isfinite(s.mass.sum()) && std::isfinite(s.force.sum()) &&
                             std::isfinite(s.jacobian.sum()) && std::isfinite(s.rhs.sum());
    if (sums_finite) return;
    const bool finite =
        s.mass.allFinite() && s.force.allFinite() && s.jacobian.allFinite() && s.rhs.allFinite();
    if (finite) return;
    non_finite_ = non_finite_entries(model_, s);
    non_finite_t_ = t;
  }

  static int residual_callback(double t, N_Vector yy, N_Vector yp, N_Vector rr, void* user_data) {
    try {
      return static_cast<impl*>(user_data)->residual(t, yy, yp, rr);
    } catch (...) {
      return -1;  // unrecoverable: no exception may cross IDA's C frames
    }
  }

  // The terms of the residual that depend on (q, v) beyond the linear structure (rows 0..2n of
  // the residual, then the r velocity rows) at (qq, vv) with the given q'', lambda_1 and mu_1.
  void small_terms(const Eigen::VectorXd& qq, const Eigen::VectorXd& vv, double t,
                   const Eigen::VectorXd& acceleration, const Eigen::VectorXd& lambda,
                   const Eigen::VectorXd& mu, Eigen::VectorXd& out) {
    ++differenced_evaluations_;
    model_.evaluate(qq, vv, t, jacobian_system_);
    note_non_finite(jacobian_system_, t);
    const Eigen::MatrixXd& jac = jacobian_system_.jacobian;
    if (!identity_) jacobian_psi_q_.noalias() = combination_ * jac;
    const Eigen::MatrixXd& psi_q = identity_ ? jac : jacobian_psi_q_;
    out.resize(2 * n_ + rank_);
    out.segment(0, n_) = psi_q.transpose() * mu;
    out.segment(n_, n_) =
        jacobian_system_.mass * acceleration + psi_q.transpose() * lambda - jacobian_system_.force;
    if (rank_ > 0) {
      const Eigen::VectorXd phi_v = model_.velocity_violation(qq, vv, t);
      out.segment(2 * n_, rank_) = identity_ ? phi_v : Eigen::VectorXd(combination_ * phi_v);
    }
  }

  // Which rows of small_terms each coordinate of q and of v reaches (the v columns: the force
  // rows n..2n only, the others are exact), found once per combination C by one-sided
  // differences at a generic state near (q, v): q and v moved by 1e-3 of their size along fixed
  // pseudo-random directions, and q'', lambda_1, mu_1 replaced by pseudo-random values, so that
  // no entry of the Jacobian is zero by coincidence (the chain hanging straight, mu = 0 on the
  // solution, v = 0 at rest). Columns that reach no common row are then differenced together
  // (group_columns; Curtis, Powell and Reid, "On the estimation of sparse Jacobian matrices",
  // J. Inst. Maths Applics 13, 1974). Should the pattern miss an entry somewhere else (a
  // piecewise force), only Newton's rate suffers: the residual is exact, and IDA cuts the step
  // when the iteration does not converge. false: the generic state is not finite (one column
  // per group then, as without a pattern).
  bool find_pattern(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t) {
    std::mt19937 generator(20261128);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), weight(0.5, 1.5);
    const auto generic = [&](const Eigen::VectorXd& x, double scale) {
      Eigen::VectorXd g = x;
      for (Eigen::Index i = 0; i < g.size(); ++i)
        g[i] += scale * std::max(std::abs(x[i]), 1.0) * unit(generator);
      return g;
    };
    const auto weights = [&](Eigen::Index size) {
      Eigen::VectorXd w(size);
      for (Eigen::Index i = 0; i < size; ++i) w[i] = weight(generator);
      return w;
    };
    Eigen::VectorXd qg = generic(q, 1e-3), vg = generic(v, 1e-3);
    const Eigen::VectorXd a = weights(n_), lambda = weights(rank_), mu = weights(rank_);
    Eigen::VectorXd base, moved;
    small_terms(qg, vg, t, a, lambda, mu, base);
    if (!base.allFinite()) return false;
    const auto reached = [&](Eigen::Index first, Eigen::Index count) {
      std::vector<int> rows;
      if (!moved.allFinite()) return std::optional<std::vector<int>>();
      for (Eigen::Index i = first; i < first + count; ++i) {
        if (moved[i] != base[i]) rows.push_back(static_cast<int>(i));
      }
      return std::optional<std::vector<int>>(std::move(rows));
    };
    rows_of_q_.assign(static_cast<std::size_t>(n_), {});
    rows_of_v_.assign(static_cast<std::size_t>(n_), {});
    for (int c = 0; c < n_; ++c) {
      const double keep = qg[c];
      qg[c] += 1e-4 * std::max(std::abs(keep), 1.0);
      small_terms(qg, vg, t, a, lambda, mu, moved);
      qg[c] = keep;
      auto rows = reached(0, 2 * n_ + rank_);
      if (!rows) return false;
      rows_of_q_[static_cast<std::size_t>(c)] = std::move(*rows);
    }
    for (int c = 0; c < n_; ++c) {
      const double keep = vg[c];
      vg[c] += 1e-4 * std::max(std::abs(keep), 1.0);
      small_terms(qg, vg, t, a, lambda, mu, moved);
      vg[c] = keep;
      auto rows = reached(n_, n_);
      if (!rows) return false;
      rows_of_v_[static_cast<std::size_t>(c)] = std::move(*rows);
    }
    return true;
  }

  // The column groups of the differenced iteration matrix: the pattern's colouring once per C,
  // or one column per group when no pattern was found.
  void prepare_groups(const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t) {
    if (groups_ready_) return;
    groups_ready_ = true;
    if (find_pattern(q, v, t)) {
      groups_q_ = group_columns(rows_of_q_, 2 * n_ + rank_);
      groups_v_ = group_columns(rows_of_v_, 2 * n_);
      return;
    }
    rows_of_q_.clear();
    rows_of_v_.clear();
    groups_q_.assign(static_cast<std::size_t>(n_), {});
    for (int c = 0; c < n_; ++c) groups_q_[static_cast<std::size_t>(c)] = {c};
    groups_v_ = groups_q_;
  }

  // Central differences of small_terms in q (x_is_q) or v over the column groups, each column
  // with its own increment eps^(1/3) max(|x_j|, 1); with a pattern only its rows are read (the
  // other columns of the group do not reach them), without one every row of the column.
  void difference_groups(bool x_is_q, const Eigen::VectorXd& q, const Eigen::VectorXd& v, double t,
                         const Eigen::VectorXd& acceleration, const Eigen::VectorXd& lambda,
                         const Eigen::VectorXd& mu) {
    const double step = std::cbrt(std::numeric_limits<double>::epsilon());
    const Eigen::VectorXd& x = x_is_q ? q : v;
    const auto& groups = x_is_q ? groups_q_ : groups_v_;
    const auto& rows_of = x_is_q ? rows_of_q_ : rows_of_v_;
    Eigen::MatrixXd& out = x_is_q ? differenced_q_ : differenced_v_;
    // differenced_v_ holds rows n..2n of small_terms.
    const Eigen::Index first = x_is_q ? 0 : n_;
    out.setZero();
    Eigen::VectorXd plus, minus;
    for (const std::vector<int>& group : groups) {
      const bool reaches_rows =
          rows_of.empty() || std::any_of(group.begin(), group.end(), [&](int c) {
            return !rows_of[static_cast<std::size_t>(c)].empty();
          });
      if (!reaches_rows) continue;  // those columns are zero
      Eigen::VectorXd xp = x, xm = x;
      for (int c : group) {
        const double d = step * std::max(std::abs(x[c]), 1.0);
        xp[c] += d;
        xm[c] -= d;
      }
      small_terms(x_is_q ? xp : q, x_is_q ? v : xp, t, acceleration, lambda, mu, plus);
      small_terms(x_is_q ? xm : q, x_is_q ? v : xm, t, acceleration, lambda, mu, minus);
      for (int c : group) {
        const double width = xp[c] - xm[c];
        if (rows_of.empty()) {
          out.col(c) = (plus.segment(first, out.rows()) - minus.segment(first, out.rows())) / width;
          continue;
        }
        for (int row : rows_of[static_cast<std::size_t>(c)]) {
          out(row - first, c) = (plus[row] - minus[row]) / width;
        }
      }
    }
  }

  // IDA's iteration matrix dF/dy + cj dF/dy' of the residual above, assembled from its exact
  // structure (the identities, cj M, cj Psi''_q^T, Psi''_q) with central differences only for
  // the small terms that depend on q and v nonlinearly: (Psi''_q^T mu)_q,
  // (M q'' + Psi''_q^T lambda - f)_q, -f_v and (C (Phi_q v + Phi_t))_q, each with its own
  // increment eps^(1/3) max(|x_j|, 1), columns that reach no common row together
  // (difference_groups).
  // Why not IDA's dense difference quotients: they perturb y_j by max(sqrt(eps) |y_j|,
  // rtol |y_j| + atol), i.e. by atol = 1e-12 for a coordinate that stays near zero (the
  // coupler's angle of the parallelogram built from bodies is identically 0). Phi, with
  // entries of size 1, is then differenced at the level of its rounding (2e-16 / 1e-12: about
  // 1e-4 relative error in that column), and near the flat configuration the iteration matrix
  // (condition ~ 1 / sigma_r of Phi_q) amplifies that error. With the difference quotients the
  // run stopped at t = 0.1667 (12 ms before the first crossing, h = 1e-12), with this matrix
  // at 0.1681; the rest of the failure was the tolerance of that coordinate (set_tolerances).
  // Also cheaper: 4 n model evaluations at most instead of 2 (n + m) + 1 residuals, and with
  // the column groups 2 per group (the 50-link chain: 400 -> EVAL_COUNT).
  int jacobian(double t, double cj, N_Vector yy, N_Vector yp, SUNMatrix jac) {
    const auto y = view(yy), dy = view(yp);
    Eigen::Map<Eigen::MatrixXd> j(SUNDenseMatrix_Data(jac), size_, size_);
    // IDA does not zero the matrix (keep_dense): the entries assigned below are the same at every
    // call with the same rank_, so the others keep the zeros of the last clearing, done here at
    // the first call and whenever rank_ (the extent of the C-dependent blocks) changed.
    if (assembled_rank_ != rank_) {
      j.setZero();
      assembled_rank_ = rank_;
      differenced_assembled_ = false;
    }
    const Eigen::VectorXd q = y.segment(0, n_), v = y.segment(n_, n_);
    const Eigen::VectorXd acceleration = dy.segment(n_, n_);
    const Eigen::VectorXd lambda = dy.segment(2 * n_, m_).head(rank_);
    const Eigen::VectorXd mu = dy.segment(2 * n_ + m_, m_).head(rank_);
    // The differenced terms change slowly next to the exact cj terms: they are reused for up
    // to jacobian_reuse_steps steps (a modified Newton iteration), recomputed at a repeated
    // setup within one step (IDA retries after a convergence failure), after a re-base, and
    // always while a combination is dropped (in the singular window: reusing them there raised
    // the relative-angle parallelogram's velocity violation from 5e-7 to 5e-5).
    long int steps_now = 0;
    IDAGetNumSteps(mem_.get(), &steps_now);
    const long long step_count = steps_before_ + steps_now;
    const bool reuse = identity_ && differenced_step_ >= 0 && step_count > differenced_step_ &&
                       step_count - differenced_step_ < jacobian_reuse_steps;
    if (!reuse) {
      differenced_step_ = step_count;
      differenced_q_.resize(2 * n_ + rank_, n_);
      differenced_v_.resize(n_, n_);
      prepare_groups(q, v, t);
      if (!structure_announced_ && !reference_assembly_) {
        announce_structure();
        structure_announced_ = true;
      }
      difference_groups(true, q, v, t, acceleration, lambda, mu);
      difference_groups(false, q, v, t, acceleration, lambda, mu);
      if (!differenced_q_.allFinite() || !differenced_v_.allFinite()) {
        differenced_step_ = -1;
        return 1;
      }
    }
    constrained_system& sys = assembly_system_;
    model_.evaluate(q, v, t, sys);
    if (!identity_) assembly_psi_q_.noalias() = combination_ * sys.jacobian;
    const Eigen::MatrixXd& psi_q = identity_ ? sys.jacobian : assembly_psi_q_;
    // Finite where assigned (the rest is zero or one, or was assigned finite before).
    bool finite = true;
    const auto all_finite = [](const auto& block) {
      // A finite sum has finite terms: allFinite's entry-wise test only when it is not.
      return std::isfinite(block.sum()) || block.allFinite();
    };
    const int velocity_rows = 2 * n_ + m_;
    if (reuse && differenced_assembled_ && !reference_assembly_) {
      // Reused differenced blocks are still in the matrix from the last assembly (nothing else
      // writes it, and it is cleared only with a new rank, after which they are recomputed):
      // only the entries with cj change, to the same sums as below. The copies of the blocks
      // were a third of this function's instructions on the 50-link chain.
      for (int i = 0; i < n_; ++i) {
        j(i, i) = differenced_q_(i, i) + cj;
        finite = finite && std::isfinite(j(i, i));
      }
      for (const auto& [i, k] : mass_entries_) {
        j(n_ + i, n_ + k) = differenced_v_(i, k) + cj * sys.mass(i, k);
        finite = finite && std::isfinite(j(n_ + i, n_ + k));
      }
    } else {
      j.block(0, 0, 2 * n_, n_) = differenced_q_.topRows(2 * n_);
      if (rank_ > 0) j.block(velocity_rows, 0, rank_, n_) = differenced_q_.bottomRows(rank_);
      j.block(n_, n_, n_, n_) = differenced_v_;
      j.block(0, 0, n_, n_).diagonal().array() += cj;
      j.block(0, n_, n_, n_).diagonal().setConstant(-1.0);  // the rest of that block stays zero
      j.block(n_, n_, n_, n_) += cj * sys.mass;
      finite = all_finite(j.block(0, 0, 2 * n_, n_)) && all_finite(j.block(n_, n_, n_, n_)) &&
               all_finite(j.block(velocity_rows, 0, rank_, n_));
      differenced_assembled_ = true;
    }
    if (m_ > 0 && identity_ && !reference_assembly_) {
      // Psi''_q = Phi_q by its structural nonzeros: its zeros are zeros of the matrix already
      // (cleared for this rank, and never assigned otherwise).
      for (const auto& [r, c] : model_.jacobian_pattern()) {
        const double a = psi_q(r, c), b = cj * a;
        j(2 * n_ + r, c) = a;
        j(velocity_rows + r, n_ + c) = a;
        j(c, velocity_rows + r) = b;
        j(n_ + c, 2 * n_ + r) = b;
        finite = finite && std::isfinite(a) && std::isfinite(b);
      }
    } else if (m_ > 0) {
      j.block(0, velocity_rows, n_, rank_) = cj * psi_q.transpose();
      j.block(n_, 2 * n_, n_, rank_) = cj * psi_q.transpose();
      j.block(2 * n_, 0, rank_, n_) = psi_q;
      j.block(2 * n_ + rank_, 2 * n_ + rank_, m_ - rank_, m_ - rank_).setIdentity();
      j.block(velocity_rows, n_, rank_, n_) = psi_q;
      j.block(velocity_rows + rank_, velocity_rows + rank_, m_ - rank_, m_ - rank_).setIdentity();
      finite = finite && all_finite(j.block(0, velocity_rows, n_, rank_)) &&
               all_finite(j.block(2 * n_, 0, rank_, n_));
    }
    return finite ? 0 : 1;
  }

  // The entries of the iteration matrix that jacobian may make nonzero, for the sparse LU's
  // pattern (iteration_matrix_lu::set_structure): they depend on rank_, C = I or not, and the
  // differenced pattern rows_of_q_, rows_of_v_, all fixed between re-bases (prepare_groups).
  void announce_structure() {
    std::vector<std::vector<int>> rows(static_cast<std::size_t>(size_));
    const auto add = [&](int row, int column) {
      rows[static_cast<std::size_t>(column)].push_back(row);
    };
    const int velocity_rows = 2 * n_ + m_;  // the first row of C (Phi_q v + Phi_t)
    // Psi''_q's entries: Phi_q's structural nonzeros when C = I, else every entry.
    std::vector<std::pair<int, int>> psi;
    if (identity_) {
      psi = model_.jacobian_pattern();
    } else {
      for (int r = 0; r < rank_; ++r) {
        for (int c = 0; c < n_; ++c) psi.emplace_back(r, c);
      }
    }
    for (int c = 0; c < n_; ++c) {
      add(c, c);       // + cj
      add(c, n_ + c);  // - 1
      if (rows_of_q_.empty()) {
        for (int r = 0; r < 2 * n_; ++r) add(r, c);
        for (int r = 0; r < rank_; ++r) add(velocity_rows + r, c);
      } else {
        for (const int r : rows_of_q_[static_cast<std::size_t>(c)]) {
          add(r < 2 * n_ ? r : velocity_rows + (r - 2 * n_), c);
        }
      }
      if (rows_of_v_.empty()) {
        for (int r = n_; r < 2 * n_; ++r) add(r, n_ + c);
      } else {
        for (const int r : rows_of_v_[static_cast<std::size_t>(c)]) add(r, n_ + c);
      }
    }
    for (const auto& [i, k] : mass_entries_) add(n_ + i, n_ + k);  // cj M
    for (const auto& [r, c] : psi) {
      add(2 * n_ + r, c);              // Psi''_q
      add(velocity_rows + r, n_ + c);  // Psi''_q
      add(n_ + c, 2 * n_ + r);         // cj Psi''_q^T
      add(c, velocity_rows + r);       // cj Psi''_q^T
    }
    for (int k = rank_; k < m_; ++k) {  // the identities of the dropped combinations
      add(2 * n_ + k, 2 * n_ + k);
      add(velocity_rows + k, velocity_rows + k);
    }
    lu_.set_structure(rows);
  }

  static int jacobian_callback(double t, double cj, N_Vector yy, N_Vector yp, N_Vector /*rr*/,
                               SUNMatrix jac, void* user_data, N_Vector /*tmp1*/, N_Vector /*tmp2*/,
                               N_Vector /*tmp3*/) {
    try {
      return static_cast<impl*>(user_data)->jacobian(t, cj, yy, yp, jac);
    } catch (...) {
      return -1;
    }
  }

  // Absolute tolerances of q and v relative to the size of the whole state, not of each
  // component: atol_q = max(atol, k_q rtol max_j |q_j|), atol_v = max(atol, k_v rtol max |v| so
  // far) (position_atol_factor, velocity_atol_factor).
  // Why (the root cause of the failure on the parallelogram built from bodies): a coordinate
  // that stays near zero (the coupler angle is identically 0 there, the cranks' y pass through
  // 0 at the flat configuration) otherwise gets the bare atol = 1e-12, below what the
  // constraints determine near a singular configuration (rounding of Phi, about 1e-16 |q|,
  // over sigma_r of Phi_q): Newton's corrections in that component are noise larger than its
  // tolerance and the corrector fails at any step size (t = 0.1667, h = 1e-12). The velocity
  // floor matters at the restarts after the singular window (the coupler's angular velocity is
  // identically 0 as well).
  void set_tolerances(const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
    velocity_scale_ = std::max(velocity_scale_, qd.lpNorm<Eigen::Infinity>());
    auto abstol = view(abstol_.get());
    abstol.head(n_).setConstant(
        std::max(atol_, position_atol_factor * rtol_ * q.lpNorm<Eigen::Infinity>()));
    abstol.segment(n_, n_).setConstant(
        std::max(atol_, velocity_atol_factor * rtol_ * velocity_scale_));
    abstol.tail(2 * m_).setConstant(multiplier_atol);
  }

  static int weight_callback(N_Vector yy, N_Vector ewt, void* user_data) {
    const impl& d = *static_cast<const impl*>(user_data);
    view(ewt) = (d.rtol_ * view(yy).cwiseAbs() + view(d.abstol_.get())).cwiseInverse();
    return 0;
  }

  // The QTZ decomposition of Phi_q at (q, t) with the singular window (`window`: the
  // M-weighted one, singular_window unless widened by a recovery): rows redundant to
  // rank_tolerance as always, and in addition the combinations whose singular value of the
  // M-weighted Jacobian Phi_q M^-1/2 falls below window times the largest one dropped.
  // M-weighted, because that is the matrix whose conditioning the acceleration-level system
  // sees, whatever the coordinates' units (bodies: x, y in m next to angles with inertia
  // m l^2 / 12; relative angles: all angles).
  qtz_decomposition decompose_windowed(const Eigen::VectorXd& q, double t, double window) const {
    const Eigen::MatrixXd jac = model_.position_jacobian(q, t);
    return decompose_qtz(jac, windowed_threshold(q, t, jac, qtz_pivots(jac), window));
  }

  // |diag R| of the column-pivoted QR of Phi_q^T (non-increasing): the unweighted QTZ pivots.
  static Eigen::VectorXd qtz_pivots(const Eigen::MatrixXd& jac) {
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(jac.transpose());
    return qr.matrixR().diagonal().cwiseAbs();
  }

  // The pivot threshold of decompose_qtz that gives the windowed rank (p: the pivots of
  // qtz_pivots, and the M-weighted singular values as square roots of the
  // eigenvalues of the m x m Gram matrix Phi_q M^-1 Phi_q^T: a ratio of 2e-3 is 4e-6 there,
  // far above rounding, and an SVD after every step was 14% of the 50-link chain's time).
  double windowed_threshold(const Eigen::VectorXd& q, double t, const Eigen::MatrixXd& jac,
                            const Eigen::VectorXd& p, double window) const {
    const double tolerance = options_.rank_tolerance;
    const auto count_above = [&](double threshold) {
      int k = 0;
      while (k < p.size() && p[k] > threshold * p[0]) ++k;
      return k;
    };
    if (p.size() == 0 || p[0] == 0.0) return tolerance;
    const int full_rank = count_above(tolerance);
    if (full_rank <= 1) return tolerance;
    // ... the combinations below pivot_window on the unweighted QTZ pivots (widened alike
    // after a recovery) ...
    int r = count_above(std::max(tolerance, pivot_window * window / singular_window));
    constrained_system& sys = screen_system_;
    model_.evaluate(q, Eigen::VectorXd::Zero(n_), t, sys);
    // A diagonal M (particles) has L = M^1/2: no dense LLT and triangular solve of size n.
    const bool diagonal = sys.mass_is_diagonal && (sys.mass.diagonal().array() > 0.0).all();
    const Eigen::LLT<Eigen::MatrixXd> mass(diagonal ? Eigen::MatrixXd() : sys.mass);
    if (diagonal || mass.info() == Eigen::Success) {
      // L^-1 Phi_q^T
      const Eigen::MatrixXd x =
          diagonal ? Eigen::MatrixXd(sys.mass.diagonal().cwiseSqrt().cwiseInverse().asDiagonal() *
                                     jac.transpose())
                   : Eigen::MatrixXd(mass.matrixL().solve(jac.transpose()));
      const Eigen::MatrixXd gram = x.transpose() * x;  // Phi_q M^-1 Phi_q^T
      r = std::min(r, eigenvalues_above(gram, window * window));
    }
    r = std::max(r, 1);
    if (r >= full_rank) return tolerance;
    // A threshold between the pivots r - 1 and r gives the QTZ decomposition of rank r.
    return std::sqrt(p[r - 1] * p[r]) / p[0];
  }

  // No combination in either window at (q, t), shown by the sparse screen
  // (detail/qtz_window_screen.hpp); false sends the state to the exact test.
  bool clear_of_windows(const Eigen::VectorXd& q, double t, const Eigen::MatrixXd& jac,
                        double window) const {
    if (jac.rows() < detail::qtz_window_screen_min_rows) return false;
    constrained_system& sys = screen_system_;
    model_.evaluate(q, Eigen::VectorXd::Zero(n_), t, sys);
    // Phi_q itself in place of A: with holonomic rows only, its nonzeros lie in A's pattern
    // (model::position_jacobian writes only those entries). Other rows: the exact test.
    if (sys.constraints() != jac.rows() || sys.coordinates() != jac.cols()) return false;
    sys.jacobian = jac;
    return screen_.clear(
        sys, std::max(options_.rank_tolerance, pivot_window * window / singular_window), window);
  }

  int windowed_rank(const Eigen::VectorXd& q, double t, double window) const {
    const Eigen::MatrixXd jac = model_.position_jacobian(q, t);
    if (clear_of_windows(q, t, jac, window)) return static_cast<int>(jac.rows());
    // One QR for the threshold's pivots and the count.
    const Eigen::VectorXd p = qtz_pivots(jac);
    const double threshold = windowed_threshold(q, t, jac, p, window);
    int k = 0;
    while (k < p.size() && p[0] > 0.0 && p[k] > threshold * p[0]) ++k;
    return k;
  }

  // C from the QTZ decomposition of Phi_q at (q, t).
  void set_combination(const Eigen::VectorXd& q, double t) {
    if (m_ == 0) {
      rank_ = 0;
      combination_.resize(0, 0);
      return;
    }
    const qtz_decomposition d = decompose_windowed(q, t, window_);
    rank_ = d.rank;
    // Full row rank: every constraint is independent, and C = I (any orthogonal C would do)
    // spares the products with C in every residual.
    identity_ = rank_ == m_;
    combination_ = identity_ ? Eigen::MatrixXd::Identity(m_, m_) : d.combination;
  }

  // Whether the frozen C still suits the state (q, t): same rank, and C Phi_q keeps its
  // conditioning (rank_ = m: C is square orthogonal and C Phi_q has Phi_q's singular values).
  bool combination_suits(const Eigen::VectorXd& q, double t) const {
    if (m_ == 0) return true;
    if (rank_ != windowed_rank(q, t, window_)) return false;
    if (rank_ == m_ || rank_ == 0) return true;
    const Eigen::MatrixXd jac = model_.position_jacobian(q, t);
    const Eigen::VectorXd s_all = Eigen::JacobiSVD<Eigen::MatrixXd>(jac).singularValues();
    const Eigen::VectorXd s_c =
        Eigen::JacobiSVD<Eigen::MatrixXd>(combination_ * jac).singularValues();
    return s_c[rank_ - 1] >= 0.5 * s_all[rank_ - 1];
  }

  // Consistent (y, y') at a state on the constraints: lambda_1 and q'' from the acceleration-
  // level system [M Psi_q^T; Psi_q 0] [q''; lambda_1] = [f; C gamma] (gamma: the full right-hand
  // side b of the holonomic rows), mu = 0.
  void consistent_values(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, double t) {
    model_.evaluate(q, qd, t, system_);
    Eigen::LLT<Eigen::MatrixXd> mass(system_.mass);
    if (mass.info() != Eigen::Success) {
      throw io::input_error(
          fmt::format("--formulation qtz-reduced: the mass matrix is not positive definite at "
                      "t = {:.6g}",
                      t));
    }
    const Eigen::VectorXd a_f = mass.solve(system_.force);
    Eigen::VectorXd acceleration = a_f;
    Eigen::VectorXd lambda = Eigen::VectorXd::Zero(m_);
    if (rank_ > 0) {
      const Eigen::MatrixXd psi_q = combination_ * system_.jacobian;
      const Eigen::MatrixXd x = mass.solve(psi_q.transpose());  // M^-1 Psi_q^T
      const Eigen::MatrixXd gram = psi_q * x;
      const Eigen::VectorXd l1 =
          Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(gram).solve(
              psi_q * a_f - combination_ * system_.rhs);
      lambda.head(rank_) = l1;
      acceleration = a_f - x * l1;
    }
    auto y = view(y_.get()), dy = view(yp_.get());
    y.setZero();
    dy.setZero();
    y.segment(0, n_) = q;
    y.segment(n_, n_) = qd;
    dy.segment(0, n_) = qd;
    dy.segment(n_, n_) = acceleration;
    dy.segment(2 * n_, m_) = lambda;
  }

  // A new C (rank or conditioning changed): back onto all constraints, consistent
  // multipliers for the new combination, and IDA restarted there with its last step size.
  void rebase(Eigen::VectorXd& q, Eigen::VectorXd& qd) {
    count_run();
    ++rebases_;
    differenced_step_ = -1;
    groups_ready_ = false;  // the pattern depends on C
    structure_announced_ = false;
    project_weighted(model_, t_, options_.newton_tolerance, options_.newton_iterations, q, qd);
    const int old_rank = rank_;
    set_combination(q, t_);
    if (rank_ > old_rank) window_ = singular_window;  // past the singular configuration
    consistent_values(q, qd, t_);
    double h = 0.0;
    IDAGetLastStep(mem_.get(), &h);
    check(IDAReInit(mem_.get(), t_, y_.get(), yp_.get()), "IDAReInit");
    if (h > 0.0) check(IDASetInitStep(mem_.get(), h), "IDASetInitStep");
  }

  // IDA's failure in plain words with the time, and how it failed.
  void fail(int flag) {
    void* mem = mem_.get();
    double t_now = t_;
    IDAGetCurrentTime(mem, &t_now);
    std::string why;
    switch (flag) {
      case IDA_TOO_MUCH_WORK:
        failure_ = dae_failure::step_size;
        why = "too many steps for one output interval (the step size became tiny)";
        break;
      case IDA_TOO_MUCH_ACC:
        failure_ = dae_failure::step_size;
        why = "rtol and atol ask for more accuracy than double precision gives";
        break;
      case IDA_ERR_FAIL:
        failure_ = dae_failure::step_size;
        why = fmt::format(
            "the local error test failed repeatedly or with the step size at its minimum {:g} "
            "(dt_min)",
            dt_min_);
        break;
      case IDA_CONV_FAIL:
        failure_ = dae_failure::not_converged;
        why =
            "the Newton iteration on the constraints and dynamics did not converge, repeatedly "
            "or with the step size at its minimum";
        break;
      case IDA_LSETUP_FAIL:
      case IDA_LSOLVE_FAIL:
        failure_ = dae_failure::not_converged;
        why = "the iteration matrix is singular (the combined constraints lost rank)";
        break;
      case IDA_RES_FAIL:
      case IDA_REP_RES_ERR:
      case IDA_FIRST_RES_FAIL:
        failure_ = dae_failure::not_converged;
        why = "the residual could not be evaluated (NaN or infinite values)";
        break;
      default:
        failure_ = dae_failure::not_converged;
        why = fmt::format("IDASolve returned {}", flag);
        break;
    }
    message_ = fmt::format("stopped at t = {:.6g}: SUNDIALS IDA (qtz-reduced): {}{}", t_now, why,
                           ida_message_.empty() ? "" : " [" + ida_message_ + "]");
    // The model turned NaN at the states the failed step tried: that is the cause, named by
    // row as in every other formulation (detail/run_dynamics.hpp, stop_non_finite).
    if (!non_finite_.empty()) {
      failure_ = dae_failure::non_finite;
      message_ = fmt::format(
          "stopped at t = {:.6g}: the model gives NaN or infinite {} at t = {:.6g}, where SUNDIALS "
          "IDA (qtz-reduced) tried to step; {}",
          t_now, fmt::join(non_finite_, ", "), non_finite_t_, why);
    }
  }

  void count_run() {
    long int n = 0;
    IDAGetNumSteps(mem_.get(), &n);
    steps_before_ += n;
    IDAGetNumErrTestFails(mem_.get(), &n);
    failures_before_ += n;
  }

  const model& model_;
  formulation_options options_;
  int n_, m_, size_;
  double dt_min_;
  double atol_ = 0.0, rtol_ = 0.0, velocity_scale_ = 0.0;
  int rank_ = 0;
  Eigen::MatrixXd combination_;      // C, rank_ x m
  bool identity_ = false;            // C = I (full row rank)
  double window_ = singular_window;  // widened for one crossing after a failure
  int recoveries_ = 0;
  Eigen::MatrixXd psi_q_;  // Psi''_q = C Phi_q of the last residual
  // The differenced part of the iteration matrix (jacobian) and the step it was computed at.
  Eigen::MatrixXd differenced_q_, differenced_v_;
  long long differenced_step_ = -1;
  // The rows of small_terms each column of q and of v reaches (find_pattern; empty: no pattern),
  // the column groups differenced together, and whether they suit the current C.
  std::vector<std::vector<int>> rows_of_q_, rows_of_v_, groups_q_, groups_v_;
  bool groups_ready_ = false;
  long long differenced_evaluations_ = 0;  // model evaluations of small_terms
  constrained_system jacobian_system_;     // small_terms' workspace
  Eigen::MatrixXd jacobian_psi_q_;
  // jacobian's workspace, and the rank_ its matrix was last cleared for (-1: never).
  constrained_system assembly_system_;
  Eigen::MatrixXd assembly_psi_q_;
  int assembled_rank_ = -1;
  bool structure_announced_ = false;    // announce_structure for the current C
  bool differenced_assembled_ = false;  // the differenced blocks are in IDA's matrix
  // M's entries that may be nonzero (its diagonal and its diagonal blocks), (row, column).
  std::vector<std::pair<int, int>> mass_entries_;
  bool reference_assembly_ = false;  // use_reference_assembly
  // The window tests' evaluation at v = 0 (clear_of_windows, windowed_threshold): a workspace,
  // so that the dense M and Phi_q are not allocated and zeroed at every step.
  mutable constrained_system screen_system_;
  mutable detail::qtz_window_screen screen_;  // its structures kept from step to step
  double t_ = 0.0;
  long long steps_before_ = 0, failures_before_ = 0, rebases_ = 0;
  dae_failure failure_ = dae_failure::none;
  std::string message_;
  std::string ida_message_;  // the last message of IDA's error handler
  // The model's non-finite entries met since the last accepted step (note_non_finite).
  std::vector<std::string> non_finite_;
  double non_finite_t_ = 0.0;
  constrained_system system_;
  Eigen::VectorXd q_, v_;
  // Destroyed in reverse order: IDA's memory before the solver, matrix, vectors and context.
  context_ptr context_;
  vector_ptr y_, yp_, id_, abstol_;
  matrix_ptr matrix_;
  iteration_matrix_lu lu_;
  linear_solver_ptr solver_;
  ida_ptr mem_;
};

namespace {

void error_callback(int /*code*/, const char* /*module*/, const char* /*function*/, char* msg,
                    void* user_data) {
  static_cast<std::string*>(user_data)->assign(msg != nullptr ? msg : "");
}

}  // namespace

qtz_reduced_dae::qtz_reduced_dae(const model& m, const formulation_options& fo,
                                 const simulation_options& so, const Eigen::VectorXd& q0,
                                 const Eigen::VectorXd& qd0, double t0)
    : impl_(std::make_unique<impl>(m, fo, so)) {
  require_holonomic(m, formulation_kind::qtz_reduced,
                    "the combined constraints Psi'' = C Phi combine positions");
  impl& d = *impl_;
  d.t_ = t0;
  SUNContext ctx = nullptr;
  check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
  d.context_.reset(ctx);
  const auto size = static_cast<sunindextype>(d.size_);
  d.y_.reset(require(N_VNew_Serial(size, ctx), "the state vector"));
  d.yp_.reset(require(N_VNew_Serial(size, ctx), "the derivative vector"));
  d.id_.reset(require(N_VNew_Serial(size, ctx), "the variable-kind vector"));
  d.abstol_.reset(require(N_VNew_Serial(size, ctx), "the tolerance vector"));
  d.matrix_.reset(require(SUNDenseMatrix(size, size, ctx), "the iteration matrix"));
  d.matrix_->ops->zero = keep_dense;
  d.solver_.reset(require(make_lu_solver(ctx, d.lu_), "the dense linear solver"));
  d.mem_.reset(require(IDACreate(ctx), "the IDA memory"));

  d.set_combination(q0, t0);
  d.consistent_values(q0, qd0, t0);
  // q, v differential (1), lambda, mu algebraic (0): excluded from the error test.
  auto id = view(d.id_.get());
  id.setZero();
  id.head(2 * d.n_).setOnes();
  // The integrated multipliers are out of the error test and enter only the Newton
  // convergence test, with a unit absolute tolerance: their components along a nearly
  // degenerate combination are ill-determined (times sigma they give a finite force) and must
  // not hold the iteration up; q and v, which they drive, carry the test.
  d.atol_ = so.atol;
  d.rtol_ = bdf_tolerance_factor * so.rtol;
  d.set_tolerances(q0, qd0);

  void* mem = d.mem_.get();
  check(IDASetErrHandlerFn(mem, error_callback, &d.ida_message_), "IDASetErrHandlerFn");
  check(IDAInit(mem, impl::residual_callback, t0, d.y_.get(), d.yp_.get()), "IDAInit");
  // Our own error weights 1 / (rtol |y_j| + abstol_j), so that the scaled absolute tolerances
  // can change between steps (IDASVtolerances may only be called before IDA's first step
  // after IDAInit / IDAReInit).
  check(IDAWFtolerances(mem, impl::weight_callback), "IDAWFtolerances");
  check(IDASetUserData(mem, impl_.get()), "IDASetUserData");
  check(IDASetLinearSolver(mem, d.solver_.get(), d.matrix_.get()), "IDASetLinearSolver");
  check(IDASetJacFn(mem, impl::jacobian_callback), "IDASetJacFn");
  check(IDASetId(mem, d.id_.get()), "IDASetId");
  check(IDASetSuppressAlg(mem, SUNTRUE), "IDASetSuppressAlg");
  check(IDASetMinStep(mem, so.dt_min), "IDASetMinStep");
  // advance_to covers one output interval: a generous bound on the steps it may take.
  check(IDASetMaxNumSteps(mem, 1000000), "IDASetMaxNumSteps");
}

qtz_reduced_dae::~qtz_reduced_dae() = default;

bool qtz_reduced_dae::advance_to(double t_out, Eigen::VectorXd& q, Eigen::VectorXd& qd) {
  impl& d = *impl_;
  void* mem = d.mem_.get();
  // One internal step at a time, so that C is checked (and re-based) after every step: a
  // singular configuration is then met with the combination that suits it, whatever dt is.
  while (t_out > d.t_) {
    check(IDASetStopTime(mem, t_out), "IDASetStopTime");
    double t_reached = d.t_;
    d.ida_message_.clear();
    const int flag = IDASolve(mem, t_out, &t_reached, d.y_.get(), d.yp_.get(), IDA_ONE_STEP);
    if (flag < 0) {
      // Near a singular configuration: once more from IDA's last accepted step (where y_ and
      // t_reached are left), with the degenerate combination dropped in a window
      // recovery_widening times wider until the rank is restored.
      const bool near_singular =
          d.m_ > 0 && d.windowed_rank(view(d.y_.get()).head(d.n_), t_reached,
                                      recovery_widening * d.window_) < d.rank_;
      if (flag != IDA_TOO_MUCH_WORK && near_singular && d.recoveries_ < max_recoveries) {
        ++d.recoveries_;
        d.non_finite_.clear();
        d.window_ *= recovery_widening;
        d.t_ = t_reached;
        const auto y = view(d.y_.get());
        q = y.segment(0, d.n_);
        qd = y.segment(d.n_, d.n_);
        d.rebase(q, qd);
        continue;
      }
      d.fail(flag);
      return false;
    }
    d.t_ = flag == IDA_TSTOP_RETURN ? t_out : t_reached;
    d.non_finite_.clear();  // recovered: IDA cut the step and went on
    const auto y = view(d.y_.get());
    q = y.segment(0, d.n_);
    qd = y.segment(d.n_, d.n_);
    if (!d.combination_suits(q, d.t_)) d.rebase(q, qd);
    d.set_tolerances(q, qd);
  }
  const auto y = view(d.y_.get());
  q = y.segment(0, d.n_);
  qd = y.segment(d.n_, d.n_);
  return true;
}

long long qtz_reduced_dae::steps() const {
  long int n = 0;
  IDAGetNumSteps(impl_->mem_.get(), &n);
  return impl_->steps_before_ + n;
}

long long qtz_reduced_dae::error_test_failures() const {
  long int n = 0;
  IDAGetNumErrTestFails(impl_->mem_.get(), &n);
  return impl_->failures_before_ + n;
}

long long qtz_reduced_dae::rebases() const {
  return impl_->rebases_;
}
bool qtz_reduced_dae::sparse_lu() const {
  return impl_->lu_.sparse();
}
long long qtz_reduced_dae::differenced_evaluations() const {
  return impl_->differenced_evaluations_;
}
int qtz_reduced_dae::column_groups() const {
  return static_cast<int>(impl_->groups_q_.size() + impl_->groups_v_.size());
}
int qtz_reduced_dae::rank() const {
  return impl_->rank_;
}
void qtz_reduced_dae::use_reference_assembly() {
  impl_->reference_assembly_ = true;
  impl_->matrix_->ops->zero = zero_dense;
}
dae_failure qtz_reduced_dae::failure() const {
  return impl_->failure_;
}
const std::string& qtz_reduced_dae::message() const {
  return impl_->message_;
}

qtz_reduced_formulation::qtz_reduced_formulation(const model& m, const formulation_options& options)
    : solver_(qtz_solver_options(options)) {
  require_holonomic(m, formulation_kind::qtz_reduced,
                    "the combined constraints Psi'' = C Phi combine positions");
  report_.name = to_string(formulation_kind::qtz_reduced);
}

}  // namespace kinevo::mechanics
