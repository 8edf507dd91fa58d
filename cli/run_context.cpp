#include "kinevo/cli/run_context.hpp"

#include "kinevo/ga/mpi_environment.hpp"
#include "kinevo/io/interrupt.hpp"

namespace kinevo::cli {

core::run_context cli_run_context(io::progress_line& progress, bool polls_interrupt) {
  core::run_context context;
  if (progress.visible()) {
    context.on_progress = [&progress](const core::progress& p) {
      progress.update(p.fraction, p.text);
    };
  }
  context.is_root = ga::mpi_environment::rank() == 0;
  if (ga::mpi_environment::size() > 1) context.agree = ga::mpi_environment::any_rank;
  if (polls_interrupt) {
    context.interrupt = &io::interrupt_flag();
    io::install_interrupt_handlers();
  }
  return context;
}

}  // namespace kinevo::cli
