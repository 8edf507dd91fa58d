// What a long run gets from its caller, the same for every library (optimize, synthesis):
// where progress goes, the interrupt flag it polls, how the MPI ranks agree, and whether this
// process is the one that prints and writes. Passed to the run instead of hooks in each
// options struct; the CLI builds one (cli/run_context.hpp), Python and the tests their own.
#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace kinevo::core {

// One progress update. The library fills what it knows; the sink shows fraction and text.
struct progress {
  double fraction = -1.0;  // of the whole run in [0, 1]; negative: unknown
  int stage = 0;           // of a run in stages (range runs, rounds), from 0
  long long step = 0;      // within the stage (generation, start, record)
  long long evaluations = 0;
  std::string text;  // what a progress line shows: "run 2 gen 140 evals 14100 best -6961.81"
};

struct run_context {
  // Polled at safe points: set (SIGINT, SIGTERM, a test) to stop with what was computed.
  const std::atomic<bool>* interrupt = nullptr;
  // Called at each progress point when set.
  std::function<void(const progress&)> on_progress;
  // Under MPI: true on every rank when it is true on any (ga::mpi_environment::any_rank), so
  // that ranks sharing a computation stop together; unset: this process alone decides.
  std::function<bool(bool)> agree;
  // This process prints and writes files (rank 0 under MPI).
  bool is_root = true;

  bool interrupt_requested() const { return interrupt != nullptr && interrupt->load(); }
  // The ranks' common answer to "stop?": this process's own vote when there is no agreement.
  bool agreed(bool mine) const { return agree ? agree(mine) : mine; }
  void report(const progress& p) const {
    if (on_progress) on_progress(p);
  }
};

}  // namespace kinevo::core
