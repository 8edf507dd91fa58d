// The nonzero pattern a sparse factorisation's symbolic analysis was made for, so that the
// analysis (a fill-reducing order, an elimination tree) is redone only when the pattern changes:
// it depends on the pattern alone, so the factors are the same as with a fresh analysis.
#pragma once

#include <Eigen/SparseCore>
#include <algorithm>
#include <vector>

namespace kinevo::mechanics {

class sparse_pattern {
 public:
  // Whether the compressed matrix a has the remembered pattern.
  bool matches(const Eigen::SparseMatrix<double>& a) const {
    if (!a.isCompressed() || outer_.size() != static_cast<std::size_t>(a.outerSize() + 1) ||
        inner_.size() != static_cast<std::size_t>(a.nonZeros())) {
      return false;
    }
    return std::equal(outer_.begin(), outer_.end(), a.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), a.innerIndexPtr());
  }
  void remember(const Eigen::SparseMatrix<double>& a) {
    outer_.assign(a.outerIndexPtr(), a.outerIndexPtr() + a.outerSize() + 1);
    inner_.assign(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  }
  // Matches nothing until the next remember (a new analysis is wanted).
  void forget() {
    outer_.clear();
    inner_.clear();
  }

 private:
  std::vector<int> outer_, inner_;
};

}  // namespace kinevo::mechanics
