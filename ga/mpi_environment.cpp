#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/errors.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>

namespace kinevo::ga {

namespace {
bool g_active = false;
int g_rank = 0;
int g_size = 1;
}  // namespace

bool launched_by_mpi() {
  // OpenMPI, MPICH/Hydra and PMIx launchers each export one of these.
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    if (std::getenv(var) != nullptr) return true;
  }
  return false;
}

mpi_environment::mpi_environment(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  // Islands may run on threads inside a rank; only the main thread calls MPI.
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_active = true;
  owner_ = true;
}

mpi_environment::~mpi_environment() {
  if (owner_) {
    MPI_Finalize();
    g_active = false;
  }
}

bool mpi_environment::active() {
  return g_active;
}
int mpi_environment::rank() {
  return g_rank;
}
int mpi_environment::size() {
  return g_size;
}

void mpi_environment::abort(int code) {
  if (g_active) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

void mpi_environment::broadcast_from_root(std::span<double> data) {
  if (!g_active || g_size < 2 || data.empty()) return;
  MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

void mpi_environment::broadcast(std::span<double> data, int root) {
  if (!g_active || g_size < 2 || data.empty()) return;
  MPI_Bcast(data.data(), static_cast<int>(data.size()), MPI_DOUBLE, root, MPI_COMM_WORLD);
}

void mpi_environment::allgather(std::span<const double> local, std::span<double> all) {
  if (all.size() != local.size() * static_cast<std::size_t>(g_size)) {
    // A caller's defect, named as the argument.
    throw io::option_error("all", "must have size() * local.size() entries (allgather)");
  }
  if (!g_active || g_size < 2) {
    std::copy(local.begin(), local.end(), all.begin());
    return;
  }
  MPI_Allgather(local.data(), static_cast<int>(local.size()), MPI_DOUBLE, all.data(),
                static_cast<int>(local.size()), MPI_DOUBLE, MPI_COMM_WORLD);
}

bool mpi_environment::any_rank(bool local) {
  if (!g_active || g_size < 2) return local;
  int mine = local ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return any != 0;
}

}  // namespace kinevo::ga
