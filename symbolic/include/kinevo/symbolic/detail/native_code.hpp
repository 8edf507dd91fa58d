// Evaluation tapes compiled to native code: each tape instruction becomes one C statement (the
// same operations in the same order, so the results are the tape's to the last bit), the C
// source is compiled by the system C compiler into a shared object, cached under a hash of the
// source and the compiler command, and loaded with dlopen. Anything that goes wrong (no
// compiler, a failed compile, a cache that cannot be written, a loaded function whose answer
// differs from the tape's) returns an empty native_function and a reason: the caller keeps the
// tape and says why in one line. Never throws for those.
//
// Settings (environment variables, read at each call):
//   KINEVO_CC         the C compiler (default "cc"): a program name looked up in PATH, or a path
//   KINEVO_CACHE_DIR  the cache folder (default $XDG_CACHE_HOME/kinevo, else ~/.cache/kinevo,
//                     else <temp>/kinevo-cache-<uid>)
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kinevo/symbolic/detail/evaluation_tape.hpp"

namespace kinevo::symbolic {

// The C translation unit of `tapes`: one function per tape named `names[i]`, with the signature
// void name(const double* in, double* out) (inputs and outputs as the tape's evaluate()).
std::string tapes_c_source(const std::vector<const evaluation_tape*>& tapes,
                           const std::vector<std::string>& names);

// A loaded native function; copies share the loaded object, which stays loaded while any copy
// lives.
class native_function {
 public:
  using signature = void (*)(const double*, double*);
  explicit operator bool() const { return function_ != nullptr; }
  void operator()(const double* in, double* out) const { function_(in, out); }

 private:
  friend class native_library;
  std::shared_ptr<void> library_;  // the dlopen handle, closed with the last copy
  signature function_ = nullptr;
};

// The outcome of compiling and loading a set of tapes.
struct native_build {
  std::vector<native_function> functions;  // one per tape, all set or all empty
  bool from_cache = false;                 // the shared object was already in the cache
  std::string reason;                      // why there are no functions (empty when there are)
  std::filesystem::path library;           // the cached shared object
};

// The cache folder the settings above select.
std::filesystem::path native_cache_directory();

// Compiles (or finds in the cache) and loads the tapes; `check_inputs` (one vector of inputs
// per tape) is evaluated by both the tape and the native function, which must agree bit for
// bit (NaN agreeing with NaN), or the build is refused with a reason.
native_build build_native(const std::vector<const evaluation_tape*>& tapes,
                          const std::vector<std::vector<double>>& check_inputs);

}  // namespace kinevo::symbolic
