// A system resource a run needs and cannot get (today: a thread that cannot be started). Not the
// user's input (io::input_error, exit status 2) but a failure of the run: the CLI reports it with
// exit status 1 (README), as a computation that failed. A std::runtime_error, so that callers
// which caught the pools' former std::runtime_error keep working.
#pragma once

#include <stdexcept>

namespace kinevo::core {

class resource_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kinevo::core
