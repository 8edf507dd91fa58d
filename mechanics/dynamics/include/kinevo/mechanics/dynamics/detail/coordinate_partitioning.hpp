// Coordinate partitioning by LU with full pivoting: Yoo, Kim and Kim, "A hybrid scheme using LU
// decomposition and projection matrix for dynamic analysis of constrained multibody systems",
// eqs. 7-9. The pivot columns of Phi_q are the dependent coordinates u (Phi_q = [Phi_u Phi_v]
// after reordering, eq. 7), the rest the independent ones v, integrated as p = B q with B the
// rows of the identity at v; u is recovered by Newton (eq. 8) and q' from eq. 9
// (reduced_coordinates). The partition is frozen until the dependent block degrades: a new one
// is chosen when the reciprocal condition number of Phi_u falls below
// formulation_options::repartition_ratio times that of the block LU would choose at the same
// state. That LU of the dense Phi_q is redone only when Phi_u's condition has fallen below the
// ratio times the chosen block's at the last LU, or partition_check_every steps after it; in
// between Phi_u's condition alone is estimated, by a sparse factorisation where Phi_q is sparse
// (sparse_block_rcond). Holonomic constraints only; the acceleration solver is the user's.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "kinevo/mechanics/dynamics/detail/reduced_coordinates.hpp"
#include "kinevo/mechanics/dynamics/detail/sparse_block_rcond.hpp"

namespace kinevo::mechanics {

// One partition of the columns of Phi_q: `dependent` (r pivot columns of LU with full pivoting,
// the first `rank` of its column permutation) and `independent` (the others), both ascending.
struct coordinate_partition {
  std::vector<int> dependent, independent;
  double rcond = 1.0;  // reciprocal condition number of Phi_q(:, dependent) (block_rcond)
};

// LU with full pivoting of `jacobian` (threshold rank_tolerance), keeping `rank` pivots (the
// rank the partition was started with; < 0: the LU's own rank); rcond left at 1.
coordinate_partition partition_columns_by_lu(const Eigen::MatrixXd& jacobian, int rank,
                                             double rank_tolerance);
// The same with rcond = block_rcond of the dependent columns.
coordinate_partition partition_by_lu(const Eigen::MatrixXd& jacobian, int rank,
                                     double rank_tolerance);

// The reciprocal condition number of jacobian(:, columns): LU's estimate when the block is
// square, sigma_min / sigma_max of its SVD otherwise (redundant rows); 1 for no columns.
double block_rcond(const Eigen::MatrixXd& jacobian, const std::vector<int>& columns);

class partitioning_formulation : public reduced_coordinates {
 public:
  partitioning_formulation(const model& m, const formulation_options& options);
  formulation_kind kind() const override { return formulation_kind::partitioning; }
  step_outcome after_step(double t, double h, double h_max, Eigen::VectorXd& y) override;

  // Reciprocal condition number of the dependent block Phi_u at the last accepted step (after
  // a re-partition there: of the new block).
  double dependent_rcond() const { return partition_.rcond; }
  const std::vector<int>& independent_coordinates() const { return partition_.independent; }
  const std::vector<int>& dependent_coordinates() const { return partition_.dependent; }
  // Whether the last after_step chose a new partition.
  bool repartitioned() const { return repartitioned_; }
  // The rcond of the block LU with full pivoting would choose at (q, t).
  double best_rcond(const Eigen::VectorXd& q, double t);

 protected:
  Eigen::MatrixXd choose_basis(const Eigen::VectorXd& q, double t) override;
  bool rebase_wanted(const Eigen::VectorXd& q, double t) override;

 private:
  // The reciprocal condition of Phi_q(q, t)(:, columns): the sparse estimate where it applies
  // (a sparse square block), else block_rcond's dense one.
  double block_rcond_at(const Eigen::VectorXd& q, double t, const std::vector<int>& columns);
  // The comparison with the block LU with full pivoting chooses at (q, t).
  bool compare_with_best(const Eigen::VectorXd& q, double t);

  coordinate_partition partition_;
  int rank_ = -1;  // fixed at the first partition: the state size n - rank must not change
  bool repartitioned_ = false;
  double best_at_check_ = 1.0;  // rcond of the block the last full-pivot LU chose
  int steps_since_check_ = 0;
  sparse_block_rcond sparse_rcond_;
};

}  // namespace kinevo::mechanics
