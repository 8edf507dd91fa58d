// MPI is initialised only when the process was started by mpiexec (detected from the launcher's
// environment), so the plain `kinevo` binary never pays for or depends on an MPI runtime.
#pragma once

#include <span>

namespace kinevo::ga {

class mpi_environment {
 public:
  // Calls MPI_Init_thread when launched under mpiexec/mpirun; otherwise does nothing.
  mpi_environment(int& argc, char**& argv);
  ~mpi_environment();
  mpi_environment(const mpi_environment&) = delete;
  mpi_environment& operator=(const mpi_environment&) = delete;

  // True when MPI was initialised by this object (so collective transports may be used).
  static bool active();
  static int rank();  // 0 when inactive
  static int size();  // 1 when inactive
  // Ends every rank with `code` (MPI_Abort when active, std::exit otherwise).
  [[noreturn]] static void abort(int code);
  // Makes every rank's copy of `data` equal to rank 0's (all ranks call it with the same size);
  // does nothing without MPI. Callers that must hand every rank the same numbers, bit for bit
  // (a model evaluated on each rank need not agree in the last bit), use this.
  static void broadcast_from_root(std::span<double> data);
  // Makes every rank's copy of `data` equal to rank `root`'s (all ranks call it with the same
  // size and root); does nothing without MPI (then `root` must be 0).
  static void broadcast(std::span<double> data, int root);
  // `all` becomes the concatenation, in rank order, of every rank's `local` (all ranks call it
  // with the same local size; all.size() == size() * local.size()). Without MPI it copies.
  static void allgather(std::span<const double> local, std::span<double> all);
  // True on every rank when `local` is true on any rank (collective: every rank must call it
  // equally often); `local` itself without MPI.
  static bool any_rank(bool local);

 private:
  bool owner_ = false;
};

// True when the environment says this process was started by an MPI launcher.
bool launched_by_mpi();

}  // namespace kinevo::ga
