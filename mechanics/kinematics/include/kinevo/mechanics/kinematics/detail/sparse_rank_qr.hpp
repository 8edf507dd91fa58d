// Rank-revealing sparse QR of the constraint Jacobian by SuiteSparseQR (T. A. Davis, "Algorithm
// 915, SuiteSparseQR: Multifrontal Multithreaded Rank-Revealing Sparse QR Factorization", ACM
// TOMS 38(1), 2011), for the rank analysis of large models. Heath's rank detection: the columns
// are taken in the ordering's order and a column whose remaining 2-norm is <= threshold is dead
// (it takes no pivot and moves to the end); the others are the pivot columns. Linear in the
// links of a chain, where Eigen's SparseQR rebuilds its column elimination tree at every dead
// column (quadratic: a 3,000-link chain took 22 s).
#pragma once

#include <Eigen/SparseCore>
#include <vector>

namespace kinevo::mechanics {

struct sparse_rank_columns {
  int rank = 0;
  std::vector<int> pivots;  // the live columns, in the ordering's order
  std::vector<int> free;    // the dead columns
};

// fill_reducing: COLAMD order (for the rank and a set of pivot columns); otherwise the columns
// are taken in their own order (which columns depend on the ones before them). threshold >= 0:
// absolute, on the remaining 2-norm. Throws core::resource_error when SuiteSparseQR fails (out
// of memory).
sparse_rank_columns sparse_rank_qr(const Eigen::SparseMatrix<double>& a, double threshold,
                                   bool fill_reducing);

}  // namespace kinevo::mechanics
