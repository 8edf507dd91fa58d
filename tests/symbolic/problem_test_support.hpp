// Helpers shared by the problem-file tests of test_symbolic (one definition, so that the files
// can be compiled together in a unity batch).
#pragma once

#include <string>

#include "kinevo/io/errors.hpp"
#include "kinevo/symbolic/optimization_problem.hpp"

namespace kinevo::symbolic::test_support {

// The message of loading the problem file `text` ("(no error)" when it loads).
inline std::string error_of(const std::string& text) {
  try {
    (void)load_optimization_problem_from_string(text, "p.toml");
  } catch (const io::input_error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace kinevo::symbolic::test_support
