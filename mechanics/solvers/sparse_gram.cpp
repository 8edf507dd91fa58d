#include "kinevo/mechanics/solvers/sparse_gram.hpp"

#include "kinevo/mechanics/solvers/gram_structure.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kinevo::mechanics {

bool sparse_gram::applicable(const constrained_system& s) {
  const auto m = static_cast<double>(s.constraints());
  const auto n = static_cast<double>(s.coordinates());
  // Below ~8 rows the dense sweep is as fast and has no set-up cost. M must be diagonal or
  // block-diagonal with small blocks (spatial bodies), so that M^-1 stays sparse.
  int largest_block = 0;
  for (const auto& [start, size] : s.mass_blocks) largest_block = std::max(largest_block, size);
  const bool sparse_mass = s.mass_is_diagonal || (s.mass_blocks.size() > 1 && largest_block <= 16);
  return sparse_mass && !s.jacobian_pattern.empty() && m >= 8 &&
         static_cast<double>(s.jacobian_pattern.size()) <= 0.25 * m * n;
}

bool sparse_gram::analysed_for(const constrained_system& s) const {
  if (analysed_rows_ != s.constraints() || analysed_cols_ != s.coordinates() ||
      analysed_diagonal_ != s.mass_is_diagonal ||
      analysed_pattern_.size() != s.jacobian_pattern.size()) {
    return false;
  }
  if (!std::equal(analysed_pattern_.begin(), analysed_pattern_.end(), s.jacobian_pattern.begin())) {
    return false;
  }
  if (s.mass_is_diagonal) return true;
  return analysed_blocks_.size() == s.mass_blocks.size() &&
         std::equal(analysed_blocks_.begin(), analysed_blocks_.end(), s.mass_blocks.begin());
}

namespace {

// M^-1 as blocks (a diagonal M: blocks of one): each block's (start, size), the block of each
// coordinate, each block's offset in the flat storage of the inverses and that storage's size.
struct block_layout {
  std::vector<std::pair<int, int>> blocks;
  std::vector<int> block_of, start_of;
  int w_size = 0;

  // The index in the flat storage of W(k, j), k and j in the same block.
  int w_index(int k, int j) const {
    const auto b = static_cast<std::size_t>(block_of[static_cast<std::size_t>(k)]);
    const auto [start, size] = blocks[b];
    return start_of[b] + (k - start) + (j - start) * size;
  }
};

// Stage: the blocks of M^-1.
block_layout mass_blocks(const constrained_system& s) {
  const int n = s.coordinates();
  block_layout l;
  if (s.mass_is_diagonal) {
    for (int k = 0; k < n; ++k) l.blocks.emplace_back(k, 1);
  } else {
    l.blocks.assign(s.mass_blocks.begin(), s.mass_blocks.end());
  }
  l.block_of.assign(static_cast<std::size_t>(n), -1);
  for (std::size_t b = 0; b < l.blocks.size(); ++b) {
    const auto [start, size] = l.blocks[b];
    for (int k = start; k < start + size; ++k)
      l.block_of[static_cast<std::size_t>(k)] = static_cast<int>(b);
    l.start_of.push_back(l.w_size);
    l.w_size += size * size;
  }
  return l;
}

// The terms of A M^-1: entry e is the sum over [first[e], first[e + 1]) of a[t] w[t], the
// products of A's value a[t] and W's w[t].
struct product_terms {
  std::vector<int> first, a, w;
};

// Stage: A M^-1, entry (i, j) = sum over k of A(i, k) W(k, j), k ascending within j's block (the
// order of Eigen's sparse product). Returns aw_columns[j]: (row i, entry), rows ascending.
sparse_lists aw_structure(const sparse_lists& rows, const block_layout& l, int n,
                          product_terms& aw) {
  aw.first.assign(1, 0);
  aw.a.clear();
  aw.w.clear();
  sparse_lists aw_columns(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    std::vector<int> touched;
    for (const auto& [k, index] : row) {
      const int b = l.block_of[static_cast<std::size_t>(k)];
      if (b >= 0 && std::find(touched.begin(), touched.end(), b) == touched.end())
        touched.push_back(b);
    }
    std::sort(touched.begin(), touched.end());
    for (const int b : touched) {
      const auto [start, size] = l.blocks[static_cast<std::size_t>(b)];
      for (int j = start; j < start + size; ++j) {
        for (const auto& [k, index] : row) {
          if (l.block_of[static_cast<std::size_t>(k)] != b) continue;
          aw.a.push_back(index);
          aw.w.push_back(l.w_index(k, j));
        }
        const auto entry = static_cast<int>(aw.first.size()) - 1;
        aw.first.push_back(static_cast<int>(aw.a.size()));
        aw_columns[static_cast<std::size_t>(j)].emplace_back(static_cast<int>(i), entry);
      }
    }
  }
  return aw_columns;
}

}  // namespace

void sparse_gram::analyse(const constrained_system& s) {
  const int m = s.constraints(), n = s.coordinates();
  sparse_structure(m, n, s.jacobian_pattern, a_, a_pattern_, a_source_);
  const sparse_lists rows = sparse_rows_of(a_);
  const block_layout blocks = mass_blocks(s);
  w_block_start_ = blocks.start_of;
  w_.assign(static_cast<std::size_t>(blocks.w_size), 0.0);
  if (!s.mass_is_diagonal) {
    block_llt_.resize(blocks.blocks.size());
    block_small_.resize(blocks.blocks.size());
  }
  product_terms aw;
  const sparse_lists aw_columns = aw_structure(rows, blocks, n, aw);
  aw_first_ = std::move(aw.first);
  aw_a_ = std::move(aw.a);
  aw_w_ = std::move(aw.w);
  aw_.assign(aw_first_.size() - 1, 0.0);
  gram_structure(rows, aw_columns, g_terms_, g_);
  ldlt_.analyzePattern(g_);
  analysed_pattern_.assign(s.jacobian_pattern.begin(), s.jacobian_pattern.end());
  analysed_blocks_.assign(s.mass_blocks.begin(), s.mass_blocks.end());
  analysed_rows_ = m;
  analysed_cols_ = n;
  analysed_diagonal_ = s.mass_is_diagonal;
}

void sparse_gram::form(const constrained_system& s) {
  double* a = a_.valuePtr();
  if (s.compact) {
    const double* values = s.jacobian_values.data();
    for (std::size_t p = 0; p < a_pattern_.size(); ++p) a[p] = values[a_pattern_[p]];
  } else {
    const double* dense = s.jacobian.data();
    for (std::size_t p = 0; p < a_source_.size(); ++p) a[p] = dense[a_source_[p]];
  }
  if (s.mass_is_diagonal) {
    for (Eigen::Index k = 0; k < s.coordinates(); ++k)
      w_[static_cast<std::size_t>(k)] = 1.0 / (s.compact ? s.mass_values[k] : s.mass(k, k));
  } else {
    // Each block's inverse as LLT(M_b).solve(I), the one the sparse product used before. A
    // compact M's block (size x size in mass_values) is copied to a matrix at (0, 0) first.
    Eigen::Index offset = 0;
    for (std::size_t b = 0; b < s.mass_blocks.size(); ++b) {
      const auto [block_start, size] = s.mass_blocks[b];
      Eigen::Index start = block_start;
      if (s.compact) {
        compact_block_ =
            Eigen::Map<const Eigen::MatrixXd>(s.mass_values.data() + offset, size, size);
        offset += static_cast<Eigen::Index>(size) * size;
        start = 0;
      }
      const Eigen::MatrixXd& mass = s.compact ? compact_block_ : s.mass;
      double* inverse = w_.data() + w_block_start_[b];
      if (size <= small_cholesky::max_size) {
        // The same numbers with the fixed-size kernels, column by column of I, into w_.
        small_cholesky& f = block_small_[b];
        f.compute(mass, start, size);
        for (int j = 0; j < size; ++j) {
          double* column = inverse + j * size;
          std::fill(column, column + size, 0.0);
          column[j] = 1.0;
          f.solve_lower_strided(column, 1);
          f.solve_upper_strided(column, 1);
        }
        continue;
      }
      block_llt_[b].compute(mass.block(start, start, size, size));
      block_inverse_ = block_llt_[b].solve(Eigen::MatrixXd::Identity(size, size));
      std::copy(block_inverse_.data(), block_inverse_.data() + size * size, inverse);
    }
  }
  for (std::size_t e = 0; e + 1 < aw_first_.size(); ++e) {
    const auto first = static_cast<std::size_t>(aw_first_[e]);
    const auto last = static_cast<std::size_t>(aw_first_[e + 1]);
    double sum = a[aw_a_[first]] * w_[static_cast<std::size_t>(aw_w_[first])];
    for (std::size_t t = first + 1; t < last; ++t)
      sum += a[aw_a_[t]] * w_[static_cast<std::size_t>(aw_w_[t])];
    aw_[e] = sum;
  }
  g_terms_.form(aw_.data(), a, g_.valuePtr());
}

const Eigen::SparseMatrix<double>& sparse_gram::gram(const constrained_system& s) {
  if (!analysed_for(s)) analyse(s);
  form(s);
  return g_;
}

bool sparse_gram::factor(const constrained_system& s, double rank_tolerance) {
  gram(s);
  ldlt_.factorize(g_);
  if (ldlt_.info() != Eigen::Success) return false;
  return rows_clear_of_dependence(ldlt_.vectorD(), g_.valuePtr(), g_terms_.diagonal,
                                  rank_tolerance);
}

Eigen::VectorXd sparse_gram::transpose_times(const constrained_system&,
                                             const Eigen::VectorXd& y) const {
  return a_.transpose() * y;
}

void sparse_gram::transpose_times_into(const Eigen::VectorXd& y, Eigen::VectorXd& out) const {
  out.noalias() = a_.transpose() * y;
}

void sparse_gram::times_into(const Eigen::VectorXd& x, Eigen::VectorXd& out) const {
  out.noalias() = a_ * x;
}

Eigen::VectorXd sparse_gram::times(const constrained_system&, const Eigen::VectorXd& x) const {
  return a_ * x;
}

}  // namespace kinevo::mechanics
