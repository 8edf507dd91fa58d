// The problem's evaluation failed in the middle of a run: the objective or a violation returned
// NaN or infinity (naming the point), or an island failed on another MPI rank (its message,
// agreed by every rank). A failure of the run, not of its options or files: the CLI reports it
// with exit status 1 ("error: ..."). Thrown, not returned in the run_result, because it happens
// inside a generation on a worker thread or another rank, where no consistent state is left to
// return, and because seven callers (minimize, range runs, optimize's run driver, the Gauss
// solver, path and linkage synthesis, Python) would each have to test a result to stay never
// silently wrong (docs/architecture.md, "Errors"). A std::runtime_error, so that callers which
// caught the former std::runtime_error (Python: RuntimeError) keep working.
#pragma once

#include <stdexcept>

namespace kinevo::ga {

class evaluation_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kinevo::ga
