#include "kinevo/mechanics/dynamics/detail/iteration_matrix_lu.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kinevo::mechanics {

namespace {

// Below this size (every example: the spatial five-bar's matrix is 124 x 124) or above a quarter
// filled the dense LU stays: the sparse LU changes the Newton iterates by round-off, which IDA,
// stopping its iteration at a tolerance, carries into the answers at about 1e-8 (the 50-link
// chain), and at 124 unknowns it was not faster (spatial five-bar, 1.20 s either way).
constexpr Eigen::Index sparse_min_size = 200;
constexpr double sparse_max_fill = 0.25;

}  // namespace

bool iteration_matrix_lu::factorize(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  if (!chosen_) {
    // Chosen once, at the first setup: the structure of the matrix does not change in a run.
    const auto size = static_cast<double>(a.rows());
    const auto nonzeros = static_cast<double>((a.array() != 0.0).count());
    sparse_ = a.rows() >= sparse_min_size && nonzeros <= sparse_max_fill * size * size;
    chosen_ = true;
  }
  return sparse_ ? factorize_sparse(a) : factorize_dense(a);
}

bool iteration_matrix_lu::factorize_dense(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  dense_.compute(a);
  const Eigen::VectorXd pivots = dense_.matrixLU().diagonal();
  return pivots.allFinite() && !(pivots.array() == 0.0).any();
}

void iteration_matrix_lu::set_structure(const std::vector<std::vector<int>>& structure) {
  structure_.clear();
  for (std::size_t j = 0; j < structure.size(); ++j) {
    std::vector<int> rows = structure[j];
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (const int i : rows) structure_.emplace_back(i, static_cast<int>(j));
  }
  // The candidates for widening; pattern_ not started yet: all of them.
  candidates_.clear();
  const auto size = static_cast<Eigen::Index>(structure.size());
  for (const auto& [i, j] : structure_) {
    if (pattern_.empty() || pattern_[static_cast<std::size_t>(j * size + i)] == 0) {
      candidates_.emplace_back(i, j);
    }
  }
}

void iteration_matrix_lu::start_pattern(Eigen::Index size) {
  if (!pattern_.empty()) return;
  pattern_.assign(static_cast<std::size_t>(size * size), 0);
  outside_.setOnes(size, size);
}

bool iteration_matrix_lu::widen_from_structure(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  const Eigen::Index size = a.rows();
  start_pattern(size);
  // The candidates that are nonzero join the pattern (in any order: the pattern is a set), the
  // others stay candidates.
  bool widened = false;
  std::size_t kept = 0;
  for (const auto& [i, j] : candidates_) {
    if (a(i, j) != 0.0) {
      pattern_[static_cast<std::size_t>(j * size + i)] = 1;
      outside_(i, j) = 0.0;
      widened = true;
    } else {
      candidates_[kept++] = {i, j};
    }
  }
  candidates_.resize(kept);
  return widened;
}

bool iteration_matrix_lu::widen_pattern(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  const Eigen::Index size = a.rows();
  start_pattern(size);
  // Whether any nonzero lies outside the pattern, by one vectorised pass (a is finite here, and
  // |a_ij| * 1 is nonzero for every nonzero a_ij, subnormals included): the entry-wise scan below
  // was a third of the sparse factorisation's time, and the pattern rarely widens.
  if ((a.cwiseAbs().cwiseProduct(outside_)).maxCoeff() == 0.0) return false;
  bool widened = false;
  for (Eigen::Index j = 0; j < size; ++j) {
    for (Eigen::Index i = 0; i < size; ++i) {
      char& p = pattern_[static_cast<std::size_t>(j * size + i)];
      if (p == 0 && a(i, j) != 0.0) {
        p = 1;
        outside_(i, j) = 0.0;
        widened = true;
      }
    }
  }
  return widened;
}

bool iteration_matrix_lu::factorize_sparse(const Eigen::Ref<const Eigen::MatrixXd>& a) {
  const Eigen::Index size = a.rows();
  const bool structured = !structure_.empty();
  if (structured) {
    // Finite outside the structure: zero there. Two passes over the structure's entries instead
    // of two over all n^2 (the 50-link chain: 1782 of 90000 entries).
    const bool finite = std::all_of(structure_.begin(), structure_.end(), [&](const auto& e) {
      return std::isfinite(a(e.first, e.second));
    });
    if (!finite) return false;
  } else if (!a.allFinite()) {
    return false;
  }
  if (structured ? widen_from_structure(a) : widen_pattern(a)) {
    std::vector<Eigen::Triplet<double>> entries;
    for (Eigen::Index j = 0; j < size; ++j) {
      for (Eigen::Index i = 0; i < size; ++i) {
        if (pattern_[static_cast<std::size_t>(j * size + i)] != 0) entries.emplace_back(i, j, 0.0);
      }
    }
    matrix_.resize(size, size);
    matrix_.setFromTriplets(entries.begin(), entries.end());
    matrix_.makeCompressed();
    lu_.analyzePattern(matrix_);
  }
  // The values into the fixed pattern (explicit zeros kept).
  for (Eigen::Index j = 0; j < size; ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(matrix_, j); it; ++it) {
      it.valueRef() = a(it.row(), j);
    }
  }
  lu_.factorize(matrix_);
  return lu_.info() == Eigen::Success;
}

Eigen::VectorXd iteration_matrix_lu::solve(const Eigen::VectorXd& b) const {
  if (sparse_) return lu_.solve(b);
  return dense_.solve(b);
}

}  // namespace kinevo::mechanics
