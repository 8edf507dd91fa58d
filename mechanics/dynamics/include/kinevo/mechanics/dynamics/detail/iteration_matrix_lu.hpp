// The LU factorisation of qtz-reduced's IDA iteration matrix dF/dy + cj dF/dy'
// (qtz_reduced_dae.cpp), handed to IDA as its linear solver. Matrices below 200 unknowns (every
// example) or more than a quarter filled take Eigen's blocked LU with partial pivoting; a large
// and sparse one (the 50-link chain's 300 x 300 matrix; its dense LU was
// half of qtz-reduced's time there) SuiteSparse's KLU (through Eigen's KLUSupport: AMD order,
// threshold partial pivoting), analysed once per pattern. KLU rather than Eigen's SparseLU
// (until issue 30's QTZ fourth pass): at these sizes SparseLU's supernodal set-up dominated, as
// for the stacked matrix of partitioning (stacked_solve.hpp). The pattern is the union of the
// nonzeros seen so far, so that an entry that is zero at one setup (the velocity terms at rest)
// and not at the next re-analyses once instead of at every change.
#pragma once

#include <Eigen/Core>
#include <Eigen/KLUSupport>
#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

namespace kinevo::mechanics {

class iteration_matrix_lu {
 public:
  // false: a zero or non-finite pivot (the matrix is singular to working precision).
  bool factorize(const Eigen::Ref<const Eigen::MatrixXd>& a);
  // A promise for the matrices of the following factorize calls: every entry outside
  // `structure` (structure[j]: the rows column j may reach, in any order) is zero. The sparse
  // path then reads only those entries for its finiteness test and the widening of its pattern
  // (the same pattern and results as from all n^2 entries). Called again when the structure
  // changes; an empty vector withdraws it.
  void set_structure(const std::vector<std::vector<int>>& structure);
  // x = A^-1 b of the last factorize.
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  bool sparse() const { return sparse_; }

 private:
  bool factorize_dense(const Eigen::Ref<const Eigen::MatrixXd>& a);
  bool factorize_sparse(const Eigen::Ref<const Eigen::MatrixXd>& a);
  // Whether a nonzero of `a` lies outside pattern_ (which then takes it in).
  bool widen_pattern(const Eigen::Ref<const Eigen::MatrixXd>& a);
  // The same from the promised structure: only its entries outside pattern_ are read.
  bool widen_from_structure(const Eigen::Ref<const Eigen::MatrixXd>& a);
  void start_pattern(Eigen::Index size);
  bool chosen_ = false, sparse_ = false;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_;
  std::vector<char> pattern_;  // size x size, column-major: 1 where the matrix may be nonzero
  Eigen::MatrixXd outside_;    // 1 - pattern_, for widen_pattern's vectorised test
  // The promised structure (set_structure; empty: none) and its entries outside pattern_, as
  // (row, column) pairs.
  std::vector<std::pair<int, int>> structure_, candidates_;
  Eigen::SparseMatrix<double> matrix_;
  Eigen::KLU<Eigen::SparseMatrix<double>> lu_;
};

}  // namespace kinevo::mechanics
