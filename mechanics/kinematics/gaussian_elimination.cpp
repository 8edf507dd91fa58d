#include "kinevo/mechanics/kinematics/detail/gaussian_elimination.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "kinevo/core/max_abs.hpp"
#include "kinevo/io/option_error.hpp"

namespace kinevo::mechanics {

void elimination_options::validate() const {
  io::require_real("relative_tolerance", relative_tolerance, {0.0, 1.0, false, true});
}

namespace {

// Elimination state on W = [A | extra]: only A's columns (the first n) pivot; row swaps and
// the elimination apply to the whole row, so `extra` ends as L^-1 P extra.
struct eliminator {
  Eigen::MatrixXd w;
  int m = 0, n = 0;
  std::vector<int> rows, cols;  // original index at each position
  int rank = 0;
  std::vector<double> pivots;
  double threshold = 0.0;

  void swap_rows(int i, int j) {
    if (i == j) return;
    w.row(i).swap(w.row(j));
    std::swap(rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)]);
  }
  void swap_columns(int i, int j) {
    if (i == j) return;
    w.col(i).swap(w.col(j));
    std::swap(cols[static_cast<std::size_t>(i)], cols[static_cast<std::size_t>(j)]);
  }
  // Eliminates below the pivot at (k, k), storing the multipliers in place (they form L).
  void eliminate_below(int k) {
    const double p = w(k, k);
    pivots.push_back(p);
    for (int i = k + 1; i < m; ++i) {
      const double l = w(i, k) / p;
      w(i, k) = l;
      if (l == 0.0) continue;
      const int rest = static_cast<int>(w.cols()) - k - 1;
      w.row(i).tail(rest) -= l * w.row(k).tail(rest);
    }
  }

  void run(pivoting pivot) {
    const int steps = std::min(m, n);
    if (pivot == pivoting::full) {
      for (int k = 0; k < steps; ++k) {
        int bi = k, bj = k;
        double best = -1.0;
        for (int j = k; j < n; ++j) {
          for (int i = k; i < m; ++i) {
            const double v = std::abs(w(i, j));
            // Ties go to the earlier row, then the earlier column (deterministic).
            if (v > best || (v == best && (rows[static_cast<std::size_t>(i)] <
                                           rows[static_cast<std::size_t>(bi)]))) {
              best = v;
              bi = i;
              bj = j;
            }
          }
        }
        if (!(best > threshold)) break;
        swap_rows(k, bi);
        swap_columns(k, bj);
        eliminate_below(k);
        ++rank;
      }
      return;
    }
    // Row pivoting: columns in their original order; a column whose remaining entries are all
    // below the threshold is free and moves to the back.
    int k = 0;
    int next = 0;  // position of the next candidate column
    while (k < steps && next < n) {
      int bi = k;
      double best = -1.0;
      for (int i = k; i < m; ++i) {
        const double v = std::abs(w(i, next));
        if (v > best) {
          best = v;
          bi = i;
        }
      }
      if (!(best > threshold)) {
        ++next;
        continue;
      }
      // Bring column `next` to position k, keeping the skipped (free) ones in order after it.
      for (int j = next; j > k; --j) swap_columns(j, j - 1);
      swap_rows(k, bi);
      eliminate_below(k);
      ++rank;
      ++k;
      ++next;
    }
  }
};

eliminator start(const Eigen::MatrixXd& a, const Eigen::MatrixXd& extra,
                 const elimination_options& options, double scale) {
  options.validate();
  // A NaN pivot candidate would be skipped by the comparisons and the rank silently low.
  if (!a.allFinite() || !extra.allFinite()) {
    throw io::option_error("matrix",
                           "or right-hand side has NaN or infinite entries (Gaussian elimination)");
  }
  eliminator e;
  e.m = static_cast<int>(a.rows());
  e.n = static_cast<int>(a.cols());
  e.w.resize(e.m, e.n + extra.cols());
  e.w.leftCols(e.n) = a;
  if (extra.cols() > 0) e.w.rightCols(extra.cols()) = extra;
  e.rows.resize(static_cast<std::size_t>(e.m));
  e.cols.resize(static_cast<std::size_t>(e.n));
  std::iota(e.rows.begin(), e.rows.end(), 0);
  std::iota(e.cols.begin(), e.cols.end(), 0);
  e.threshold = options.relative_tolerance * scale;
  return e;
}

// Solves the leading r x r upper triangle of w for the right-hand sides `rhs` (r x k).
Eigen::MatrixXd back_substitute(const Eigen::MatrixXd& w, int r, Eigen::MatrixXd rhs) {
  for (int i = r - 1; i >= 0; --i) {
    for (int j = i + 1; j < r; ++j) rhs.row(i) -= w(i, j) * rhs.row(j);
    rhs.row(i) /= w(i, i);
  }
  return rhs;
}

}  // namespace

std::vector<int> elimination_result::pivot_columns() const {
  return {column_order.begin(), column_order.begin() + rank};
}
std::vector<int> elimination_result::free_columns() const {
  return {column_order.begin() + rank, column_order.end()};
}
std::vector<int> elimination_result::pivot_rows() const {
  return {row_order.begin(), row_order.begin() + rank};
}
std::vector<int> elimination_result::dependent_rows() const {
  return {row_order.begin() + rank, row_order.end()};
}

elimination_result eliminate(const Eigen::MatrixXd& a, const elimination_options& options) {
  eliminator e = start(a, Eigen::MatrixXd(a.rows(), 0), options, max_abs(a));
  e.run(options.pivot);
  elimination_result r;
  r.rows = e.m;
  r.columns = e.n;
  r.rank = e.rank;
  r.threshold = e.threshold;
  r.row_order = e.rows;
  r.column_order = e.cols;
  r.pivots = e.pivots;
  r.lower = Eigen::MatrixXd::Zero(e.m, e.rank);
  for (int j = 0; j < e.rank; ++j) {
    r.lower(j, j) = 1.0;
    for (int i = j + 1; i < e.m; ++i) r.lower(i, j) = e.w(i, j);
  }
  r.upper = Eigen::MatrixXd::Zero(e.rank, e.n);
  for (int i = 0; i < e.rank; ++i) {
    for (int j = i; j < e.n; ++j) r.upper(i, j) = e.w(i, j);
  }
  return r;
}

linear_solution solve_linear(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                             const elimination_options& options) {
  if (b.size() != a.rows()) {
    throw io::option_error(
        "b", fmt::format("has {} entries for {} rows (solve_linear)", b.size(), a.rows()));
  }
  const double scale = std::max(max_abs(a), b.size() == 0 ? 0.0 : b.cwiseAbs().maxCoeff());
  // The rank is decided on A alone; b only sets the consistency scale.
  eliminator e = start(a, b, options, max_abs(a));
  e.run(options.pivot);
  const int r = e.rank, n = e.n;
  linear_solution s;
  s.rank = r;
  const Eigen::VectorXd reduced = e.w.col(n);
  s.inconsistency = r < e.m ? reduced.tail(e.m - r).cwiseAbs().maxCoeff() : 0.0;
  s.consistent = s.inconsistency <= options.relative_tolerance * scale;

  // Dependent variables in ascending order (the pivot order is an artefact of the pivoting).
  std::vector<int> dep_pos(static_cast<std::size_t>(r)), free_pos(static_cast<std::size_t>(n - r));
  std::iota(dep_pos.begin(), dep_pos.end(), 0);
  std::iota(free_pos.begin(), free_pos.end(), r);
  auto by_variable = [&](int x, int y) {
    return e.cols[static_cast<std::size_t>(x)] < e.cols[static_cast<std::size_t>(y)];
  };
  std::sort(dep_pos.begin(), dep_pos.end(), by_variable);
  std::sort(free_pos.begin(), free_pos.end(), by_variable);

  // U11 x_dep = y - U12 x_free.
  Eigen::MatrixXd rhs(r, 1 + (n - r));
  rhs.col(0) = reduced.head(r);
  for (int f = 0; f < n - r; ++f)
    rhs.col(1 + f) = -e.w.block(0, free_pos[static_cast<std::size_t>(f)], r, 1);
  const Eigen::MatrixXd x = back_substitute(e.w, r, rhs);

  s.particular = Eigen::VectorXd::Zero(n);
  s.coefficients.resize(r, n - r);
  for (int d = 0; d < r; ++d) {
    const int pos = dep_pos[static_cast<std::size_t>(d)];
    s.dependent.push_back(e.cols[static_cast<std::size_t>(pos)]);
    s.particular[e.cols[static_cast<std::size_t>(pos)]] = x(pos, 0);
    for (int f = 0; f < n - r; ++f) s.coefficients(d, f) = x(pos, 1 + f);
  }
  for (int pos : free_pos) s.free.push_back(e.cols[static_cast<std::size_t>(pos)]);
  return s;
}

lu_factors crout_lu(const Eigen::MatrixXd& a) {
  if (a.rows() != a.cols()) {
    throw io::option_error("a",
                           fmt::format("is {} x {}, not square (crout_lu)", a.rows(), a.cols()));
  }
  const int n = static_cast<int>(a.rows());
  const double zero = 1e-14 * std::max(max_abs(a), 1e-300) * n;
  lu_factors f;
  f.lower = Eigen::MatrixXd::Identity(n, n);
  f.upper = Eigen::MatrixXd::Zero(n, n);
  for (int k = 0; k < n; ++k) {
    // Row k of U, then column k of L (Haug, section 4.4.5).
    for (int j = k; j < n; ++j) {
      double s = a(k, j);
      for (int p = 0; p < k; ++p) s -= f.lower(k, p) * f.upper(p, j);
      f.upper(k, j) = s;
    }
    if (!(std::abs(f.upper(k, k)) > zero)) {
      throw io::option_error(
          "a",
          fmt::format("has a zero pivot at step {} (u = {:g}): the matrix needs pivoting or is "
                      "singular (crout_lu)",
                      k + 1, f.upper(k, k)));
    }
    for (int i = k + 1; i < n; ++i) {
      double s = a(i, k);
      for (int p = 0; p < k; ++p) s -= f.lower(i, p) * f.upper(p, k);
      f.lower(i, k) = s / f.upper(k, k);
    }
  }
  return f;
}

Eigen::VectorXd lu_factors::solve(const Eigen::VectorXd& b) const {
  const int n = static_cast<int>(lower.rows());
  Eigen::VectorXd y = b;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < i; ++j) y[i] -= lower(i, j) * y[j];
  }
  for (int i = n - 1; i >= 0; --i) {
    for (int j = i + 1; j < n; ++j) y[i] -= upper(i, j) * y[j];
    y[i] /= upper(i, i);
  }
  return y;
}

}  // namespace kinevo::mechanics
