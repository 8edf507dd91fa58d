#include "kinevo/mechanics/dynamics/detail/sparse_block_rcond.hpp"

#include <algorithm>
#include <cmath>

namespace kinevo::mechanics {

namespace {

// Above this fill the dense estimate is as cheap (the same bound as stacked_solve's).
constexpr double block_sparse_density = 0.2;

}  // namespace

// block_ = jacobian(:, columns) in compressed columns (the jacobian's own column storage).
void sparse_block_rcond::gather(const Eigen::SparseMatrix<double>& jacobian,
                                const std::vector<int>& columns) {
  const auto r = static_cast<Eigen::Index>(columns.size());
  Eigen::Index nonzeros = 0;
  for (const int c : columns) {
    nonzeros += jacobian.outerIndexPtr()[c + 1] - jacobian.outerIndexPtr()[c];
  }
  block_.resize(jacobian.rows(), r);
  block_.resizeNonZeros(nonzeros);
  int* outer = block_.outerIndexPtr();
  int at = 0;
  for (Eigen::Index j = 0; j < r; ++j) {
    outer[j] = at;
    const int c = columns[static_cast<std::size_t>(j)];
    for (int e = jacobian.outerIndexPtr()[c]; e < jacobian.outerIndexPtr()[c + 1]; ++e, ++at) {
      block_.innerIndexPtr()[at] = jacobian.innerIndexPtr()[e];
      block_.valuePtr()[at] = jacobian.valuePtr()[e];
    }
  }
  outer[r] = at;
}

std::optional<double> sparse_block_rcond::operator()(const Eigen::SparseMatrix<double>& jacobian,
                                                     const std::vector<int>& columns) {
  const auto r = static_cast<Eigen::Index>(columns.size());
  if (r == 0 || jacobian.rows() != r || !jacobian.isCompressed()) return std::nullopt;
  gather(jacobian, columns);
  if (static_cast<double>(block_.nonZeros()) >
      block_sparse_density * static_cast<double>(r) * static_cast<double>(r)) {
    return std::nullopt;
  }
  // The pattern is Phi_q's, fixed between re-partitions: ordering and analysis once for it.
  if (!pattern_.matches(block_)) {
    lu_.analyzePattern(block_);
    if (lu_.info() != Eigen::Success) {
      pattern_.forget();
      return std::nullopt;
    }
    pattern_.remember(block_);
  }
  lu_.factorize(block_);
  if (lu_.info() != Eigen::Success) return std::nullopt;
  return lu_.rcond(block_);
}

}  // namespace kinevo::mechanics
