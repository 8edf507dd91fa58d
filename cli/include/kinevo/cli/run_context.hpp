// The one run context every long subcommand passes to its library (core/run_context.hpp).
#pragma once

#include "kinevo/core/run_context.hpp"
#include "kinevo/io/progress.hpp"

namespace kinevo::cli {

// Progress into `progress` (when the line is shown; it must outlive the run), the MPI ranks'
// agreement (ga::mpi_environment::any_rank under mpiexec) and rank 0 as the root; for a run
// that polls the interrupt flag, the one flag (io/interrupt.hpp) with the SIGINT/SIGTERM
// handlers installed (a run that does not poll keeps the default: a signal ends the process).
core::run_context cli_run_context(io::progress_line& progress, bool polls_interrupt);

}  // namespace kinevo::cli
