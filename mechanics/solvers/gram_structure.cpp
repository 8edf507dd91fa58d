#include "kinevo/mechanics/solvers/gram_structure.hpp"

#include <algorithm>
#include <stdexcept>

namespace kinevo::mechanics {

void sparse_structure(Eigen::Index m, Eigen::Index n, std::span<const std::pair<int, int>> pattern,
                      Eigen::SparseMatrix<double>& a, std::vector<Eigen::Index>& pattern_index,
                      std::vector<Eigen::Index>& source) {
  // The values of the triplets carry each entry's index in the pattern (+ 1), read back below.
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(pattern.size());
  for (std::size_t k = 0; k < pattern.size(); ++k) {
    const auto& [r, c] = pattern[k];
    triplets.emplace_back(r, c, static_cast<double>(k + 1));
  }
  a.resize(m, n);
  a.setFromTriplets(triplets.begin(), triplets.end());
  a.makeCompressed();
  pattern_index.resize(static_cast<std::size_t>(a.nonZeros()));
  source.resize(static_cast<std::size_t>(a.nonZeros()));
  for (Eigen::Index k = 0; k < a.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, k); it; ++it) {
      const auto p = static_cast<std::size_t>(&it.value() - a.valuePtr());
      pattern_index[p] = static_cast<Eigen::Index>(it.value()) - 1;
      source[p] = it.row() + k * m;
    }
  }
}

sparse_lists sparse_rows_of(const Eigen::SparseMatrix<double>& a) {
  sparse_lists rows(static_cast<std::size_t>(a.rows()));
  for (Eigen::Index k = 0; k < a.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, k); it; ++it) {
      rows[static_cast<std::size_t>(it.row())].emplace_back(
          static_cast<int>(k), static_cast<int>(&it.value() - a.valuePtr()));
    }
  }
  return rows;
}

sparse_lists sparse_columns_of(const Eigen::SparseMatrix<double>& a) {
  sparse_lists columns(static_cast<std::size_t>(a.cols()));
  for (Eigen::Index k = 0; k < a.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, k); it; ++it) {
      columns[static_cast<std::size_t>(k)].emplace_back(
          static_cast<int>(it.row()), static_cast<int>(&it.value() - a.valuePtr()));
    }
  }
  return columns;
}

void gram_terms::form(const double* left, const double* right, double* out) const {
  for (std::size_t e = 0; e + 1 < first.size(); ++e) {
    const auto begin = static_cast<std::size_t>(first[e]);
    const auto end = static_cast<std::size_t>(first[e + 1]);
    double sum = left[l[begin]] * right[r[begin]];
    for (std::size_t t = begin + 1; t < end; ++t) sum += left[l[t]] * right[r[t]];
    out[e] = sum;
  }
}

void gram_structure(const sparse_lists& rows, const sparse_lists& left_columns, gram_terms& g,
                    Eigen::SparseMatrix<double>& lower) {
  const auto m = static_cast<int>(rows.size());
  g.first.assign(1, 0);
  g.l.clear();
  g.r.clear();
  g.diagonal.assign(static_cast<std::size_t>(m), -1);
  std::vector<Eigen::Triplet<double>> g_triplets;
  std::vector<int> slot(static_cast<std::size_t>(m), -1);
  std::vector<std::vector<std::pair<int, int>>> terms;  // per entry of column j
  std::vector<int> entry_rows;
  for (int j = 0; j < m; ++j) {
    terms.clear();
    entry_rows.clear();
    for (const auto& [k, a_index] : rows[static_cast<std::size_t>(j)]) {
      for (const auto& [i, l_index] : left_columns[static_cast<std::size_t>(k)]) {
        if (i < j) continue;
        int& e = slot[static_cast<std::size_t>(i)];
        if (e < 0) {
          e = static_cast<int>(terms.size());
          terms.emplace_back();
          entry_rows.push_back(i);
        }
        terms[static_cast<std::size_t>(e)].emplace_back(l_index, a_index);
      }
    }
    std::vector<int> order(entry_rows.size());
    for (std::size_t e = 0; e < order.size(); ++e) order[e] = static_cast<int>(e);
    std::sort(order.begin(), order.end(), [&](int x, int y) {
      return entry_rows[static_cast<std::size_t>(x)] < entry_rows[static_cast<std::size_t>(y)];
    });
    for (const int e : order) {
      const int i = entry_rows[static_cast<std::size_t>(e)];
      for (const auto& [l_index, a_index] : terms[static_cast<std::size_t>(e)]) {
        g.l.push_back(l_index);
        g.r.push_back(a_index);
      }
      if (i == j) g.diagonal[static_cast<std::size_t>(j)] = static_cast<int>(g.first.size()) - 1;
      g.first.push_back(static_cast<int>(g.l.size()));
      g_triplets.emplace_back(i, j, 0.0);
      slot[static_cast<std::size_t>(i)] = -1;
    }
  }
  lower.resize(m, m);
  lower.setFromTriplets(g_triplets.begin(), g_triplets.end());
  lower.makeCompressed();
  // Internal invariant: the triplets are distinct and in column-major order, so the compressed
  // values are the terms' entries one for one.
  if (static_cast<std::size_t>(lower.nonZeros()) + 1 != g.first.size()) {
    throw std::logic_error("gram_structure: the Gram matrix's structure is not the one analysed");
  }
}

bool rows_clear_of_dependence(const Eigen::VectorXd& d, const double* gram_values,
                              const std::vector<int>& diagonal, double tolerance) {
  const double tol2 = tolerance * tolerance;
  for (std::size_t i = 0; i < diagonal.size(); ++i) {
    // Every row of A has an entry, so G_ii is in the structure; a missing one is a zero row.
    const double g_ii = diagonal[i] < 0 ? 0.0 : gram_values[diagonal[i]];
    if (!(g_ii > 0.0) || !(d[static_cast<Eigen::Index>(i)] > tol2 * g_ii)) return false;
  }
  return true;
}

}  // namespace kinevo::mechanics
