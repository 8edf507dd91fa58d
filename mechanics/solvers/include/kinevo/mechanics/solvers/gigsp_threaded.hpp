// Threaded GIGSP row process (generalized-inverse dissertation (GIGSP), section 4.4, Table 4.6:
// the "incremental & cyclic" style on shared memory). The rows of A L^-T are cut into blocks of
// `block_rows` rows, dealt to the threads cyclically (block k to thread k mod T). Block by block:
// the owner orthogonalises its block serially (modified Gram-Schmidt inside the block, the
// serial sweep's tests decide kept / redundant / inconsistent), then every thread removes the
// block's accepted rows from its own later blocks (two passes, block classical Gram-Schmidt
// "twice is enough", as matrix products). The owner of the next block updates and factors it
// first, so the serial in-block work overlaps the other threads' updates (look-ahead).
// The threads are a core::thread_pool the solver keeps between solves.
// Every block is written by one thread only and each thread works its blocks in a fixed order,
// so the result does not depend on thread timing.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "kinevo/core/thread_pool.hpp"
#include "kinevo/mechanics/solvers/solver_support.hpp"

namespace kinevo::mechanics {

// The thread CPU seconds of each task of one threaded sweep: the benchmark replays the schedule
// with them to model the time on idle cores (timings on a loaded machine measure its share).
struct sweep_profile {
  std::vector<double> factor;               // factor[k]: block k's in-block sweep
  std::vector<std::vector<double>> update;  // update[j][k]: block k's rows removed from block j
                                            // (k < j); update[j][j]: block j copied in
  // CPU seconds of the calling thread outside the tasks (copies, gather, the dependent rows'
  // test): the serial remainder when the pool has 1 thread.
  double outside = 0.0;
};

// Same contract and outputs as orthonormalize_rows (solver_support.hpp): the same kept,
// redundant and inconsistent rows and q, beta equal to round-off. A row the serial sweep would
// make wait (its remainder below 1e-3 of the largest, a degenerate set) sends the whole set to
// the serial sweep, so that such sets are decided exactly as there.
gram_schmidt_rows orthonormalize_rows_threaded(const Eigen::MatrixXd& a_hat,
                                               const Eigen::VectorXd& b, double rank_tolerance,
                                               double consistency_tolerance,
                                               double degenerate_tolerance, core::thread_pool& pool,
                                               int block_rows = 32,
                                               sweep_profile* profile = nullptr);

// M = L L^T (L lower, strict upper part zero), right-looking by blocks of `block` columns: the
// diagonal block by Eigen's LLT, the panel under it (L21 = A21 L11^-T) and the trailing update
// (A22 -= L21 L21^T) split over the pool by row blocks dealt cyclically. Returns false when M is
// not positive definite.
bool threaded_cholesky(const Eigen::MatrixXd& m, core::thread_pool& pool, Eigen::MatrixXd& l,
                       int block = 64);

// A L^-T for lower-triangular L, the rows of A split over the pool (each a triangular solve).
Eigen::MatrixXd right_solve_lower_transpose_threaded(const Eigen::MatrixXd& l,
                                                     const Eigen::MatrixXd& a,
                                                     core::thread_pool& pool);

// Sets rank, redundant and inconsistent rows of `r` from the row process; when rows are
// inconsistent also the status and the message naming them, and returns true. Shared by the
// serial and threaded GIGSP so that both say the same.
bool gigsp_diagnosis(const constrained_system& s, const gram_schmidt_rows& gs,
                     acceleration_result& r);

// GIGSP's dense path (eq. 2.30) with every O(n^3) / O(m^2 n) piece on the pool: the Cholesky
// factor of M (or the diagonal fast path), A L^-T, the row process; gigsp_solver with
// threads > 1 calls it for systems without a sparse pattern.
acceleration_result gigsp_dense_threaded(const constrained_system& s, double rank_tolerance,
                                         double consistency_tolerance, double degenerate_tolerance,
                                         core::thread_pool& pool);

}  // namespace kinevo::mechanics
