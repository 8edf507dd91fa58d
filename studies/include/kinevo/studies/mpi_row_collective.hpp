// The row collective of the distributed GIGSP over MPI ranks: mechanics' row_collective
// implemented with ga's MPI functions (mechanics knows no MPI, ga knows no mechanics; this
// module sees both). Without mpiexec it is the one-rank collective.
#pragma once

#include <span>

#include "kinevo/mechanics/solvers/row_collective.hpp"

namespace kinevo::studies {

class mpi_row_collective final : public mechanics::row_collective {
 public:
  int rank() const override;
  int size() const override;
  void broadcast(std::span<double> data, int root) override;
  void allgather(std::span<const double> local, std::span<double> all) override;
};

// Under mpiexec with more than one rank, makes "gigsp" in mechanics' solver factory the
// distributed solver over MPI_COMM_WORLD (every rank must then solve the same systems in the
// same order, as `kinevo accel` and `simulate` do); otherwise does nothing. Returns whether it
// registered. Call it once, after MPI is initialised.
bool register_distributed_gigsp();

}  // namespace kinevo::studies
