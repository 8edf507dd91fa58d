// GIGSP (generalized-inverse dissertation (GIGSP), eqs. 2.21-2.30): Cholesky M = L L^T,
// modified Gram-Schmidt on the rows of A L^-T with a row-relative tolerance and the same row
// operations on b, then a = a_f + L^-T A_1^T (b_1 - A_1 L^T a_f). Redundant rows are dropped;
// inconsistent rows are refused by name. For sparse A (chains) the same orthogonalisation is done
// through a sparse Cholesky of the Gram matrix A M^-1 A^T (its factor is the Gram-Schmidt
// triangle), O(N) for a chain; a rank-deficient set falls back to the dense sweep.
// With options.threads > 1 a system without a sparse pattern takes the dense path on that many
// threads: Cholesky, A L^-T and the sweep (gigsp_threaded.hpp: blocked, cyclic; same result to
// round-off, same diagnosis; section 4.4 of the dissertation). Sparse systems stay serial.
#pragma once

#include <memory>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/gigsp_threaded.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"
#include "kinevo/mechanics/solvers/sparse_gram.hpp"

namespace kinevo::mechanics {

class gigsp_solver final : public acceleration_solver {
 public:
  explicit gigsp_solver(const direct_solver_options& options = {}) : options_(options) {}
  std::string name() const override;
  acceleration_result solve(const constrained_system& system) override;
  void solve_into(const constrained_system& system, acceleration_result& out) override;
  // With the sparse path allowed and one thread: a compact system goes the sparse way when
  // sparse_gram applies and A has full row rank, else through its dense form. After a compact
  // system that the sparse path does not take (a small or dense model), false: the model's dense
  // form costs less than the compact one and its expansion, until a dense system arrives that
  // the sparse path would take.
  bool reads_compact() const override;

 private:
  void solve_finite(const constrained_system& system, acceleration_result& out);
  direct_solver_options options_;
  sparse_gram sparse_;
  constrained_system expanded_;  // the dense form of a compact system, when it is needed
  bool dense_systems_ = false;   // ask for dense systems (reads_compact)
  // Kept between solves so that the factors' storage is reused (same sizes at every state).
  mass_factor mf_;
  Eigen::VectorXd a_f_, g_, y_, work_, lambda_;
  Eigen::MatrixXd a_hat_, a_hat_t_;
  gram_schmidt_workspace sweep_work_;
  gram_schmidt_rows sweep_;
  std::unique_ptr<core::thread_pool> pool_;  // started at the first threaded solve, then kept
};

}  // namespace kinevo::mechanics
