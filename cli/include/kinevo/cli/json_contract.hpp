// The --json contract (docs/cli.md): with --json, every exit (0, 1, 2, 130) prints exactly one
// JSON object on stdout with at least "status", "message" and "exit_status". A subcommand that
// printed its own object keeps it (its keys win, "exit_status" and any missing "status" or
// "message" are added); a failure that printed nothing on stdout (an unusable file, an option
// out of range, a parse error of the command line) gets an object of its own, whose message is
// the error's (the lines written to stderr when no exception carried one).
//
// How: while the contract is active, stdout goes to an anonymous in-memory file and stderr
// through a pipe that a thread forwards, line by line, to the real stderr (so progress and
// warnings stay live) while keeping its text for the message. finish() restores both and prints
// the object. Only rank 0 of an MPI run prints, so only there is it active.
#pragma once

#include <memory>
#include <string>

namespace kinevo::cli {

class json_exit_contract {
 public:
  // Active when `argv` holds --json and `printing` (rank 0).
  json_exit_contract(int argc, char** argv, bool printing);
  ~json_exit_contract();
  json_exit_contract(const json_exit_contract&) = delete;
  json_exit_contract& operator=(const json_exit_contract&) = delete;

  bool active() const { return state_ != nullptr; }
  // The message of an error that ends the run (from main's handlers).
  void set_message(std::string message) { message_ = std::move(message); }
  // Ends the capture, prints the object (when active) and returns `code`.
  int finish(int code);

  // "ok", "failed", "bad_input" or "interrupted" for the exit statuses 0, 1, 2, 130.
  static const char* status_of(int code);
  // The object printed for `code`, from what the subcommand printed on stdout (`out`, maybe
  // empty or not JSON) and on stderr (`err`), and the error `message` (maybe empty).
  static std::string object_for(int code, const std::string& out, const std::string& err,
                                const std::string& message);

 private:
  struct capture;
  std::unique_ptr<capture> state_;
  std::string message_;
};

}  // namespace kinevo::cli
