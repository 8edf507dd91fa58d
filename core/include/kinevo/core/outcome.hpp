// One outcome model for every result (Ceres Solver's Solver::Summary is the model): how a run
// ended (one termination for all libraries), the family's own word for it and a message the
// user reads, and the documented exit status derived from it once (docs/cli.md, "Exit
// statuses"). Each result embeds a `summary`; its own report adds the figures.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kinevo::core {

// How a run ended, in the words every library shares.
enum class termination {
  ok,             // finished and the answer holds (converged, completed, feasible)
  not_converged,  // an iteration stopped before its tolerance: the answer is not the solution
  infeasible,     // no answer meets the constraints asked for (the least-violating is shown)
  failed,         // no usable answer (singular, inconsistent, diverged, not assembled)
  interrupted,    // SIGINT/SIGTERM: what was computed is kept
};

// "ok", "not_converged", "infeasible", "failed", "interrupted".
std::string_view to_string(termination t);

// The documented exit statuses of `kinevo` (docs/cli.md). bad_input (2) never comes from a
// summary: unusable input is an io::input_error or io::option_error thrown before any result.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_interrupted = 130;

struct summary {
  termination end = termination::ok;
  // The result family's own status word when it says more than `end` ("not_assembled",
  // "no_linkage", "non_finite", "missed_target"); empty: to_string(end).
  std::string reason;
  std::string message;  // what the user must read; empty when ok
  // An answer that is not ok but that the user accepted in advance (optimize
  // --allow-infeasible): usable, exit 0, and the message still printed as a warning.
  bool accepted = false;
  // Generic figures when the run has them.
  std::optional<long long> iterations, evaluations;
  std::optional<double> seconds;

  // The answer may be used as it stands: ok, or accepted.
  bool usable() const { return end == termination::ok || accepted; }
  // The status word: reason, else to_string(end).
  std::string status() const;
  // One line: "status" or "status: message", then the figures present.
  std::string brief_report() const;
  // One line a field: status, termination, message, figures.
  std::string full_report() const;

  // A summary ending as `end` with the family's word and message.
  static summary ended(termination end, std::string reason = {}, std::string message = {});
};

// The exit status of a run that produced this summary: 0 when usable, 130 when interrupted,
// 1 otherwise (a failure the user sees, never "ok": docs/cli.md).
int exit_status(const summary& s);

}  // namespace kinevo::core
