#include "kinevo/studies/mpi_row_collective.hpp"

#include <memory>

#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/mechanics/solvers/gigsp_distributed.hpp"
#include "kinevo/mechanics/solvers/solver_factory.hpp"

namespace kinevo::studies {

int mpi_row_collective::rank() const {
  return ga::mpi_environment::rank();
}

int mpi_row_collective::size() const {
  return ga::mpi_environment::size();
}

void mpi_row_collective::broadcast(std::span<double> data, int root) {
  ga::mpi_environment::broadcast(data, root);
}

void mpi_row_collective::allgather(std::span<const double> local, std::span<double> all) {
  ga::mpi_environment::allgather(local, all);
}

bool register_distributed_gigsp() {
  if (!ga::mpi_environment::active() || ga::mpi_environment::size() < 2) return false;
  return mechanics::register_solver(
      "gigsp", "generalized inverse by Gram-Schmidt (GIGSP), rows distributed over the MPI ranks",
      [](const mechanics::solver_options& o) -> std::unique_ptr<mechanics::acceleration_solver> {
        return std::make_unique<mechanics::gigsp_distributed_solver>(
            o.direct, std::make_shared<mpi_row_collective>());
      });
}

}  // namespace kinevo::studies
