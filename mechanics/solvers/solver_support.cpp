#include "kinevo/mechanics/solvers/solver_support.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kinevo/mechanics/solvers/detail/packet_order_sum.hpp"

namespace kinevo::mechanics {

namespace {

// One diagonal block of M, the size x size block of `source` at (at, at), factored into b: by the
// fixed-size kernels when it is small, else by Eigen's LLT. Shared by the dense M and the compact
// one (whose blocks are copied to (0, 0) of a work matrix), so both give the same factors.
template <class Block>
bool factor_block(Block& b, Eigen::Index start, Eigen::Index size, const Eigen::MatrixXd& source,
                  Eigen::Index at) {
  b.start = start;
  b.size = size;
  b.is_small = size <= small_cholesky::max_size;
  if (b.is_small) return b.small.compute(source, at, size);
  b.llt.compute(source.block(at, at, size, size));
  return b.llt.info() == Eigen::Success;
}

}  // namespace

bool mass_factor::compute(const constrained_system& s) {
  diagonal_ = s.mass_is_diagonal;
  block_count_ = 0;
  if (diagonal_) {
    if (!s.compact) diagonal_work_ = s.mass.diagonal();
    const Eigen::VectorXd& d = s.compact ? s.mass_values : diagonal_work_;
    if (!(d.array() > 0.0).all()) return false;
    sqrt_diag_ = d.cwiseSqrt();
    inv_diag_ = d.cwiseInverse();
    return true;
  }
  if (s.compact) return compute_compact(s);
  if (s.mass_blocks.size() > 1) {
    // The blocks' factors keep their storage from one solve to the next (a solver owns its
    // mass_factor): the same sizes at every state, so no allocation after the first.
    if (blocks_.size() < s.mass_blocks.size()) blocks_.resize(s.mass_blocks.size());
    all_small_ = true;
    for (const auto& [start, size] : s.mass_blocks) {
      block& b = blocks_[block_count_++];
      if (!factor_block(b, start, size, s.mass, start)) return false;
      all_small_ = all_small_ && b.is_small;
    }
    return true;
  }
  llt_.compute(s.mass);
  return llt_.info() == Eigen::Success;
}

// The blocks of a compact M (constrained_system::compact): each a dense size x size block of
// mass_values, copied into a matrix at (0, 0) so that the factors are those of the dense path.
bool mass_factor::compute_compact(const constrained_system& s) {
  if (blocks_.size() < s.mass_blocks.size()) blocks_.resize(s.mass_blocks.size());
  all_small_ = true;
  Eigen::Index offset = 0;
  for (const auto& [start, size] : s.mass_blocks) {
    block& b = blocks_[block_count_++];
    block_work_ = Eigen::Map<const Eigen::MatrixXd>(s.mass_values.data() + offset, size, size);
    offset += static_cast<Eigen::Index>(size) * size;
    if (!factor_block(b, start, size, block_work_, 0)) return false;
    all_small_ = all_small_ && b.is_small;
  }
  return true;
}

Eigen::VectorXd mass_factor::solve(const Eigen::VectorXd& f) const {
  if (diagonal_) return f.cwiseProduct(inv_diag_);
  if (blocked()) {
    Eigen::VectorXd x = f;
    solve_in_place(x);
    return x;
  }
  return llt_.solve(f);
}

Eigen::VectorXd mass_factor::solve_lower(const Eigen::VectorXd& f) const {
  if (diagonal_) return f.cwiseQuotient(sqrt_diag_);
  if (blocked()) {
    Eigen::VectorXd x = f;
    solve_lower_in_place(x);
    return x;
  }
  return llt_.matrixL().solve(f);
}

Eigen::VectorXd mass_factor::solve_upper(const Eigen::VectorXd& y) const {
  if (diagonal_) return y.cwiseQuotient(sqrt_diag_);
  if (blocked()) {
    Eigen::VectorXd x = y;
    solve_upper_in_place(x);
    return x;
  }
  return llt_.matrixU().solve(y);
}

Eigen::MatrixXd mass_factor::right_solve_upper(const Eigen::MatrixXd& a) const {
  if (diagonal_) return a * sqrt_diag_.cwiseInverse().asDiagonal();
  if (blocked()) {
    Eigen::MatrixXd out, work;
    right_solve_upper(a, out, work);
    return out;
  }
  // A L^-T = (L^-1 A^T)^T
  return llt_.matrixL().solve(a.transpose()).transpose();
}

void mass_factor::solve_in_place(Eigen::VectorXd& x) const {
  if (diagonal_) {
    x = x.cwiseProduct(inv_diag_);
  } else if (blocked()) {
    for (const block& b : active_blocks()) {
      if (b.is_small) {
        b.small.solve_lower(x.data() + b.start);
        b.small.solve_upper(x.data() + b.start);
      } else {
        b.llt.solveInPlace(x.segment(b.start, b.size));
      }
    }
  } else {
    llt_.solveInPlace(x);
  }
}

void mass_factor::solve_lower_in_place(Eigen::VectorXd& x) const {
  if (diagonal_) {
    x = x.cwiseQuotient(sqrt_diag_);
  } else if (blocked()) {
    for (const block& b : active_blocks()) {
      if (b.is_small)
        b.small.solve_lower(x.data() + b.start);
      else
        b.llt.matrixL().solveInPlace(x.segment(b.start, b.size));
    }
  } else {
    llt_.matrixL().solveInPlace(x);
  }
}

void mass_factor::solve_upper_in_place(Eigen::VectorXd& x) const {
  if (diagonal_) {
    x = x.cwiseQuotient(sqrt_diag_);
  } else if (blocked()) {
    for (const block& b : active_blocks()) {
      if (b.is_small)
        b.small.solve_upper(x.data() + b.start);
      else
        b.llt.matrixU().solveInPlace(x.segment(b.start, b.size));
    }
  } else {
    llt_.matrixU().solveInPlace(x);
  }
}

void mass_factor::right_solve_upper(const Eigen::MatrixXd& a, Eigen::MatrixXd& out,
                                    Eigen::MatrixXd& work) const {
  if (diagonal_) {
    // out = A diag(1 / sqrt(m_jj)) column by column: the numbers of Eigen's diagonal product
    // without its expression set-up (a third of the call on a two-link chain).
    out.resize(a.rows(), a.cols());
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const double inverse = 1.0 / sqrt_diag_[j];
      const double* in = a.data() + j * a.rows();
      double* o = out.data() + j * a.rows();
      for (Eigen::Index i = 0; i < a.rows(); ++i) o[i] = in[i] * inverse;
    }
    return;
  }
  if (blocked() && all_small_) {
    // Straight on A's rows (each row of A is a column of the transposed right-hand side). A row
    // touches the blocks of one or two bodies: on its zero segments the solve gives zeros, so
    // they are skipped (the same numbers).
    out = a;
    const Eigen::Index stride = out.outerStride();
    for (const block& b : active_blocks()) {
      if (b.size == 1) {
        // y <- y / l as the product by 1 / l that the strided solve takes, on the whole column:
        // a zero stays the same zero, so skipping it changes nothing (a spatial body's three
        // translational blocks; the row loop cost more than the products).
        out.col(b.start) *= b.small.inverse_diagonal(0);
        continue;
      }
      for (Eigen::Index i = 0; i < out.rows(); ++i) {
        double* y = &out(i, b.start);
        bool zero = true;
        for (Eigen::Index k = 0; k < b.size && zero; ++k) zero = y[k * stride] == 0.0;
        if (!zero) b.small.solve_lower_strided(y, stride);
      }
    }
    return;
  }
  work = a.transpose();
  if (blocked()) {
    for (const block& b : active_blocks()) {
      if (!b.is_small) {
        b.llt.matrixL().solveInPlace(work.middleRows(b.start, b.size));
        continue;
      }
      for (Eigen::Index j = 0; j < work.cols(); ++j)
        b.small.solve_lower_strided(&work(b.start, j), 1);
    }
  } else {
    llt_.matrixL().solveInPlace(work);
  }
  out = work.transpose();
}

void mass_times(const constrained_system& s, const Eigen::VectorXd& x, Eigen::VectorXd& out) {
  if (s.compact && s.mass_is_diagonal) {
    out = s.mass_values.cwiseProduct(x);
    return;
  }
  if (s.compact) {
    out.resize(x.size());
    Eigen::Index offset = 0;
    for (const auto& [start, size] : s.mass_blocks) {
      const double* b = s.mass_values.data() + offset;
      offset += static_cast<Eigen::Index>(size) * size;
      if (detail::assign_block_product(b, size, size, x.data() + start, out.data() + start))
        continue;
      const Eigen::Map<const Eigen::MatrixXd> block(b, size, size);
      out.segment(start, size).noalias() = block * x.segment(start, size);
    }
    return;
  }
  if (s.mass_is_diagonal) {
    out = s.mass.diagonal().cwiseProduct(x);
    return;
  }
  out.resize(x.size());
  if (s.mass_blocks.size() > 1) {
    for (const auto& [start, size] : s.mass_blocks) {
      if (detail::assign_block_product(&s.mass(start, start), s.mass.rows(), size, x.data() + start,
                                       out.data() + start))
        continue;
      out.segment(start, size).noalias() =
          s.mass.block(start, start, size, size) * x.segment(start, size);
    }
    return;
  }
  out.noalias() = s.mass * x;
}

Eigen::VectorXd mass_times(const constrained_system& s, const Eigen::VectorXd& x) {
  Eigen::VectorXd y;
  mass_times(s, x, y);
  return y;
}

std::string row_names(const constrained_system& s, const std::vector<int>& rows) {
  std::string out;
  for (int r : rows) {
    if (!out.empty()) out += ", ";
    if (static_cast<std::size_t>(r) < s.constraint_names.size()) {
      out += "'" + s.constraint_names[static_cast<std::size_t>(r)] + "'";
    } else {
      out += fmt::format("row {}", r + 1);
    }
  }
  return out;
}

void set_constraint_force(const constrained_system& s, const Eigen::VectorXd& a_f,
                          acceleration_result& r) {
  r.constraint_force = mass_times(s, r.acceleration - a_f);
}

void set_constraint_force(const constrained_system& s, const Eigen::VectorXd& a_f,
                          acceleration_result& r, Eigen::VectorXd& work) {
  work = r.acceleration - a_f;
  mass_times(s, work, r.constraint_force);
}

void reset_result(acceleration_result& r) {
  r.status = solve_status::ok;
  r.rank = 0;
  r.redundant.clear();
  r.inconsistent.clear();
  r.message.clear();
  r.evaluations = 0;
  r.runs = 0;
}

acceleration_result not_positive_definite(const std::string& solver) {
  acceleration_result r;
  r.status = solve_status::singular;
  r.message = solver + ": the mass matrix is not positive definite at this state";
  return r;
}

namespace {

// x * 0 is 0 for every finite x and NaN for NaN and infinities, so the sum is 0 exactly when
// every entry is finite, whatever the order of the additions: Eigen's packet reduction
// vectorises it. Eigen's allFinite() compares entry by entry and was the largest single cost of
// a GIGSP solve of the spatial chain at N = 10 (70 x 70 M, 40 x 70 A).
bool entries_finite(const double* x, Eigen::Index size) {
  return (Eigen::Map<const Eigen::ArrayXd>(x, size) * 0.0).sum() == 0.0;
}

// M's entries the solvers read: its diagonal, its blocks, or all of it; the entries outside are
// zero by the structure the system declares (mass_is_diagonal, mass_blocks).
bool mass_finite(const constrained_system& s) {
  if (s.mass_is_diagonal)
    return s.mass.rows() == 0 || (s.mass.diagonal().array() * 0.0).sum() == 0.0;
  if (s.mass_blocks.size() > 1) {
    for (const auto& [start, size] : s.mass_blocks) {
      if (!((s.mass.block(start, start, size, size).array() * 0.0).sum() == 0.0)) return false;
    }
    return true;
  }
  return entries_finite(s.mass.data(), s.mass.size());
}

// A's structurally non-zero entries when the pattern is given (the rest is zero by definition),
// else all: a spatial chain of 90 bodies has 5,000 of 227,000.
bool jacobian_finite(const constrained_system& s) {
  if (s.jacobian_pattern.empty()) return entries_finite(s.jacobian.data(), s.jacobian.size());
  double sum = 0.0;
  for (const auto& [r, c] : s.jacobian_pattern) sum += s.jacobian(r, c) * 0.0;
  return sum == 0.0;
}

bool system_finite(const constrained_system& s) {
  if (s.compact) {
    return entries_finite(s.mass_values.data(), s.mass_values.size()) &&
           entries_finite(s.force.data(), s.force.size()) &&
           entries_finite(s.jacobian_values.data(), s.jacobian_values.size()) &&
           entries_finite(s.rhs.data(), s.rhs.size());
  }
  return mass_finite(s) && entries_finite(s.force.data(), s.force.size()) && jacobian_finite(s) &&
         entries_finite(s.rhs.data(), s.rhs.size());
}

}  // namespace

void dense_system_into(const constrained_system& s, constrained_system& d) {
  d.mass_is_diagonal = s.mass_is_diagonal;
  d.mass_blocks = s.mass_blocks;
  d.force = s.force;
  d.rhs = s.rhs;
  d.constraint_names = s.constraint_names;
  d.jacobian_pattern = s.jacobian_pattern;
  d.compact = false;
  const Eigen::Index n = s.coordinates();
  d.mass.setZero(n, n);
  if (s.mass_is_diagonal) {
    d.mass.diagonal() = s.mass_values;
  } else {
    Eigen::Index offset = 0;
    for (const auto& [start, size] : s.mass_blocks) {
      d.mass.block(start, start, size, size) =
          Eigen::Map<const Eigen::MatrixXd>(s.mass_values.data() + offset, size, size);
      offset += static_cast<Eigen::Index>(size) * size;
    }
  }
  d.jacobian.setZero(s.constraints(), n);
  for (std::size_t k = 0; k < s.jacobian_pattern.size(); ++k) {
    const auto& [r, c] = s.jacobian_pattern[k];
    d.jacobian(r, c) = s.jacobian_values[static_cast<Eigen::Index>(k)];
  }
}

constrained_system dense_system(const constrained_system& s) {
  if (!s.compact) return s;
  constrained_system d;
  dense_system_into(s, d);
  return d;
}

std::optional<acceleration_result> refuse_non_finite(const constrained_system& s,
                                                     const std::string& solver) {
  if (system_finite(s)) return std::nullopt;
  // The message names rows and coordinates from the dense form (a failure, so rare).
  if (s.compact) return refuse_non_finite(dense_system(s), solver);
  std::vector<std::string> parts;
  std::vector<int> rows;
  for (int i = 0; i < s.constraints(); ++i) {
    if (!s.jacobian.row(i).allFinite() || !std::isfinite(s.rhs[i])) rows.push_back(i);
  }
  if (!rows.empty()) parts.push_back("constraint " + row_names(s, rows));
  std::vector<int> coordinates;
  for (int i = 0; i < s.coordinates(); ++i) {
    if (!std::isfinite(s.force[i]) || !s.mass.row(i).allFinite()) coordinates.push_back(i + 1);
  }
  if (!coordinates.empty()) {
    parts.push_back(fmt::format("force or mass of coordinate {}", fmt::join(coordinates, ", ")));
  }
  acceleration_result r;
  r.status = solve_status::non_finite;
  r.message = fmt::format("{}: the system has NaN or infinite entries in {}", solver,
                          fmt::join(parts, "; "));
  return r;
}

gram_schmidt_rows orthonormalize_rows(const Eigen::MatrixXd& a_hat, const Eigen::VectorXd& b,
                                      double rank_tolerance, double consistency_tolerance,
                                      double degenerate_tolerance) {
  gram_schmidt_workspace work;
  gram_schmidt_rows g;
  orthonormalize_rows(a_hat, b, rank_tolerance, consistency_tolerance, degenerate_tolerance, work,
                      g);
  return g;
}

void orthonormalize_rows(const Eigen::MatrixXd& a_hat, const Eigen::VectorXd& b,
                         double rank_tolerance, double consistency_tolerance,
                         double degenerate_tolerance, gram_schmidt_workspace& work,
                         gram_schmidt_rows& g) {
  const Eigen::Index m = a_hat.rows(), n = a_hat.cols();
  g.kept.clear();
  g.redundant.clear();
  g.inconsistent.clear();
  // Right-looking modified Gram-Schmidt: each accepted row is removed from all remaining rows
  // at once. Rows are taken in order (so that of two disagreeing rows the later one is named),
  // except that a row whose remainder is far below the largest remainder waits: a nearly-zero
  // row of a degenerate configuration has a direction made only of round-off and drift, and
  // accepting it before the rows that really span the set would spoil them.
  auto& rem = work.rem;
  rem = a_hat;
  Eigen::VectorXd& beta = work.beta;
  beta = b;
  Eigen::VectorXd& norm0 = work.norm0;
  norm0 = a_hat.rowwise().norm();
  const double scale = m > 0 ? norm0.maxCoeff() : 0.0;
  const double b_scale = 1.0 + (b.size() > 0 ? b.cwiseAbs().maxCoeff() : 0.0);
  auto& q = work.q;
  q.resize(m, n);
  Eigen::VectorXd& qb = work.qb;
  qb.resize(m);
  std::vector<char>& decided = work.decided;
  decided.assign(static_cast<std::size_t>(m), 0);
  Eigen::VectorXd& remainder = work.remainder;
  remainder.setZero(m);
  std::vector<int>& dependent = work.dependent;
  dependent.clear();
  // The rows' dot products and norms by the kernels of packet_order_sum.hpp on the row-major
  // storage (Eigen's order, so the same bits as rem.row(i).norm(), q.row(j).dot(rem.row(i))).
  using detail::packet_order_dot;
  auto rem_row = [&rem](Eigen::Index i) { return rem.data() + i * rem.outerStride(); };
  auto q_row = [&q](Eigen::Index j) { return q.data() + j * q.outerStride(); };
  // x -= c y on one row (element by element, as Eigen's row expression).
  auto axpy = [n](double* __restrict x, double c, const double* __restrict y) {
    for (Eigen::Index k = 0; k < n; ++k) x[k] -= c * y[k];
  };
  int r = 0;
  for (;;) {
    double largest = 0.0;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (decided[static_cast<std::size_t>(i)]) continue;
      const double nr = std::sqrt(detail::packet_order_squared_norm(rem_row(i), n));
      remainder[i] = nr;
      // Dependent: remainder ~0 relative to the row itself (the dissertation's test) or to
      // the largest row (a degenerate, nearly-zero row).
      if (norm0[i] == 0.0 || nr <= rank_tolerance * norm0[i] ||
          nr <= degenerate_tolerance * scale) {
        decided[static_cast<std::size_t>(i)] = 1;
        dependent.push_back(static_cast<int>(i));
      } else {
        largest = std::max(largest, nr);
      }
    }
    Eigen::Index best = -1;
    for (Eigen::Index i = 0; i < m && best < 0; ++i) {
      if (!decided[static_cast<std::size_t>(i)] && remainder[i] >= 1e-3 * largest) best = i;
    }
    if (best < 0) break;
    decided[static_cast<std::size_t>(best)] = 1;
    // Second pass against the accepted rows ("twice is enough") before normalising.
    double* x = rem_row(best);
    for (int j = 0; j < r; ++j) {
      const double c = packet_order_dot(q_row(j), x, n);
      axpy(x, c, q_row(j));
      beta[best] -= c * qb[j];
    }
    const double nr = std::sqrt(detail::packet_order_squared_norm(x, n));
    double* qr = q_row(r);
    for (Eigen::Index k = 0; k < n; ++k) qr[k] = x[k] / nr;
    qb[r] = beta[best] / nr;
    g.kept.push_back(static_cast<int>(best));
    for (Eigen::Index i = 0; i < m; ++i) {
      if (decided[static_cast<std::size_t>(i)]) continue;
      const double c = packet_order_dot(qr, rem_row(i), n);
      axpy(rem_row(i), c, qr);
      beta[i] -= c * qb[r];
    }
    ++r;
  }
  // A dependent row's right-hand side remainder must vanish too, or the set is inconsistent.
  for (int i : dependent) {
    for (int j = 0; j < r; ++j) {
      const double c = packet_order_dot(q_row(j), rem_row(i), n);
      beta[i] -= c * qb[j];
    }
    if (std::abs(beta[i]) > consistency_tolerance * b_scale) {
      g.inconsistent.push_back(i);
    } else {
      g.redundant.push_back(i);
    }
  }
  std::sort(g.redundant.begin(), g.redundant.end());
  std::sort(g.inconsistent.begin(), g.inconsistent.end());
  g.q = q.topRows(r);
  g.beta = qb.head(r);
}

std::optional<acceleration_result> start_solve(const constrained_system& s,
                                               const std::string& solver, mass_factor& mf,
                                               Eigen::VectorXd& a_f, bool checked) {
  if (!checked) {
    if (auto bad = refuse_non_finite(s, solver)) return bad;
  }
  if (!mf.compute(s)) return not_positive_definite(solver);
  a_f = s.force;  // into a_f's storage: M^-1 f as mf.solve(f) computes it
  mf.solve_in_place(a_f);
  if (s.constraints() > 0) return std::nullopt;
  acceleration_result r;
  r.acceleration = a_f;
  set_constraint_force(s, a_f, r);
  return r;
}

}  // namespace kinevo::mechanics
