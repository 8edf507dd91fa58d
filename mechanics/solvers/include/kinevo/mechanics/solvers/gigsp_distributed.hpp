// GIGSP with the rows of A distributed over the ranks of a row_collective (generalized-inverse
// dissertation (GIGSP), eqs. 2.21-2.30; the parallel styles of its section 4.4, Table 4.6: row
// blocks assigned cyclically, "incremental" block updates). Every rank holds the whole system
// and owns the row blocks k with k mod size == rank. Block by block, in row order, the owner
// orthonormalises its block (modified Gram-Schmidt with the serial GIGSP's row-relative
// tolerance, the same operations on b) and broadcasts the new orthonormal rows with the
// decisions; every rank then removes them, twice ("twice is enough"), from its own later rows.
// Rank 0 assembles a = L^-T (g + A_1^T (b_1 - A_1 g)) and broadcasts the result, so every rank
// returns the same acceleration bit for bit and the same redundant / inconsistent rows by name.
//
// The serial sweep (orthonormalize_rows) lets a row whose remainder is far below the largest
// remainder wait (degenerate configurations). Each owner checks that no such waiting can happen
// against an upper bound of the largest remainder; when it could, the ranks agree to fall back
// to the serial GIGSP on rank 0 (broadcast), as they do for small systems (min_rows), sparse
// chains (the serial solver's O(N) sparse path), no constraints, or a mass matrix that is not
// positive definite.
#pragma once

#include <memory>

#include "kinevo/mechanics/solvers/acceleration_solver.hpp"
#include "kinevo/mechanics/solvers/direct_solver_options.hpp"
#include "kinevo/mechanics/solvers/gigsp_solver.hpp"
#include "kinevo/mechanics/solvers/row_collective.hpp"

namespace kinevo::mechanics {

struct gigsp_distribution_options {
  int block_rows = 16;  // rows per block (a block is the unit owned and broadcast)
  // Systems with fewer rows are solved by the serial GIGSP on rank 0 and broadcast: their sweep
  // costs microseconds, less than the blocked sweep's collective calls (and the answer is then
  // the serial one bit for bit, as a small model's GA comparison under mpiexec expects).
  int min_rows = 32;
  // Throws io::option_error unless block_rows >= 1 and min_rows >= 0.
  void validate() const;
};

// What the last solve did, for benchmarks and tests.
struct gigsp_distribution_statistics {
  bool serial_route = false;   // solved by the serial GIGSP on rank 0 (see above)
  bool fell_back = false;      // the blocked sweep stopped: a row might have had to wait
  long long broadcasts = 0;    // collective calls of this rank (broadcasts and allgathers)
  long long doubles_sent = 0;  // doubles moved by those calls (the per-call payload)
  // Wall time of this rank's parts of the blocked sweep: orthonormalising its own blocks (the
  // critical path: the other ranks wait), removing blocks from its later rows (the part that
  // divides among the ranks), and inside the collective calls.
  double block_seconds = 0.0, update_seconds = 0.0, collective_seconds = 0.0;
};

class gigsp_distributed_solver final : public acceleration_solver {
 public:
  gigsp_distributed_solver(const direct_solver_options& options,
                           std::shared_ptr<row_collective> collective,
                           const gigsp_distribution_options& distribution = {});
  // "gigsp": the same solver to the user, on any number of ranks.
  std::string name() const override;
  // Collective: every rank of the collective calls it with the same system.
  acceleration_result solve(const constrained_system& system) override;
  const gigsp_distribution_statistics& last_statistics() const { return stats_; }

 private:
  acceleration_result blocked_sweep(const constrained_system& s, bool& fell_back);
  void broadcast(std::span<double> data, int root);
  void allgather(std::span<const double> local, std::span<double> all);
  void broadcast_result(acceleration_result& r);

  direct_solver_options options_;
  std::shared_ptr<row_collective> collective_;
  gigsp_distribution_options distribution_;
  gigsp_solver serial_;
  gigsp_distribution_statistics stats_;
};

}  // namespace kinevo::mechanics
