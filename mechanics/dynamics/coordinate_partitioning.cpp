#include "kinevo/mechanics/dynamics/detail/coordinate_partitioning.hpp"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <optional>

namespace kinevo::mechanics {

coordinate_partition partition_columns_by_lu(const Eigen::MatrixXd& jacobian, int rank,
                                             double rank_tolerance) {
  const Eigen::Index n = jacobian.cols();
  coordinate_partition p;
  std::vector<char> is_dependent(static_cast<std::size_t>(n), 0);
  if (jacobian.rows() > 0 && n > 0) {
    Eigen::FullPivLU<Eigen::MatrixXd> lu;
    lu.setThreshold(rank_tolerance);
    lu.compute(jacobian);
    const Eigen::Index r = rank < 0 ? lu.rank() : std::min<Eigen::Index>(rank, n);
    // The first r columns of the column permutation carry the r largest pivots (eq. 7).
    const auto& perm = lu.permutationQ().indices();
    for (Eigen::Index j = 0; j < r; ++j) is_dependent[static_cast<std::size_t>(perm[j])] = 1;
  }
  for (Eigen::Index j = 0; j < n; ++j) {
    (is_dependent[static_cast<std::size_t>(j)] ? p.dependent : p.independent)
        .push_back(static_cast<int>(j));
  }
  return p;
}

coordinate_partition partition_by_lu(const Eigen::MatrixXd& jacobian, int rank,
                                     double rank_tolerance) {
  coordinate_partition p = partition_columns_by_lu(jacobian, rank, rank_tolerance);
  p.rcond = block_rcond(jacobian, p.dependent);
  return p;
}

double block_rcond(const Eigen::MatrixXd& jacobian, const std::vector<int>& columns) {
  if (columns.empty() || jacobian.rows() == 0) return 1.0;
  const auto r = static_cast<Eigen::Index>(columns.size());
  Eigen::MatrixXd block(jacobian.rows(), r);
  for (Eigen::Index j = 0; j < r; ++j) {
    block.col(j) = jacobian.col(columns[static_cast<std::size_t>(j)]);
  }
  if (block.rows() == r) return Eigen::PartialPivLU<Eigen::MatrixXd>(block).rcond();
  // Redundant rows: Phi_u is m x r of rank r, no LU estimate; the singular-value ratio.
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(block);
  const double largest = svd.singularValues().maxCoeff();
  return largest > 0.0 ? svd.singularValues().minCoeff() / largest : 0.0;
}

partitioning_formulation::partitioning_formulation(const model& m,
                                                   const formulation_options& options)
    : reduced_coordinates(m, options) {
  report_.name = to_string(formulation_kind::partitioning);
}

Eigen::MatrixXd partitioning_formulation::choose_basis(const Eigen::VectorXd& q, double t) {
  partition_ =
      partition_columns_by_lu(model_.position_jacobian(q, t), rank_, options_.rank_tolerance);
  partition_.rcond = block_rcond_at(q, t, partition_.dependent);
  if (rank_ < 0) rank_ = static_cast<int>(partition_.dependent.size());
  best_at_check_ = partition_.rcond;
  steps_since_check_ = 0;
  // B: the rows of the identity at the independent coordinates v (p = v).
  const auto k = static_cast<Eigen::Index>(partition_.independent.size());
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(k, q.size());
  for (Eigen::Index i = 0; i < k; ++i)
    b(i, partition_.independent[static_cast<std::size_t>(i)]) = 1;
  return b;
}

double partitioning_formulation::best_rcond(const Eigen::VectorXd& q, double t) {
  const coordinate_partition chosen =
      partition_columns_by_lu(model_.position_jacobian(q, t), rank_, options_.rank_tolerance);
  return block_rcond_at(q, t, chosen.dependent);
}

double partitioning_formulation::block_rcond_at(const Eigen::VectorXd& q, double t,
                                                const std::vector<int>& columns) {
  if (const std::optional<double> sparse =
          sparse_rcond_(model_.position_jacobian_sparse(q, t), columns)) {
    return *sparse;
  }
  return block_rcond(model_.position_jacobian(q, t), columns);
}

bool partitioning_formulation::compare_with_best(const Eigen::VectorXd& q, double t) {
  partition_.rcond = block_rcond_at(q, t, partition_.dependent);
  const coordinate_partition chosen =
      partition_columns_by_lu(model_.position_jacobian(q, t), rank_, options_.rank_tolerance);
  // When the LU chooses the current block again (the usual case) its rcond is the one above.
  const double best = chosen.dependent == partition_.dependent
                          ? partition_.rcond
                          : block_rcond_at(q, t, chosen.dependent);
  best_at_check_ = best;
  steps_since_check_ = 0;
  return partition_.rcond < options_.repartition_ratio * best;
}

bool partitioning_formulation::rebase_wanted(const Eigen::VectorXd& q, double t) {
  // Between full comparisons: the block is kept while it is at least repartition_ratio times as
  // well conditioned as the best block was at the last one.
  if (++steps_since_check_ < options_.partition_check_every) {
    const double current = block_rcond_at(q, t, partition_.dependent);
    if (current >= options_.repartition_ratio * best_at_check_) {
      partition_.rcond = current;
      return false;
    }
  }
  const bool wanted = compare_with_best(q, t);
  if (wanted) {
    repartitioned_ = true;
    ++report_.repartitions;
  }
  return wanted;
}

step_outcome partitioning_formulation::after_step(double t, double h, double h_max,
                                                  Eigen::VectorXd& y) {
  repartitioned_ = false;
  return reduced_coordinates::after_step(t, h, h_max, y);
}

}  // namespace kinevo::mechanics
