// What the end-to-end tests of refused and bounded runs share (test_cli_bounded_runs.cpp,
// test_cli_finite_results.cpp): a case is a command line, the exit status it must end with and
// part of the message it must print on stderr, in kinevo's words.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cli/run_command.hpp"

namespace kinevo::test {

struct expected_refusal {
  std::string args;
  int status;
  std::string message;  // part of stderr
};

// Runs `kinevo <args>` for every case under `timeout` (a regression that hangs becomes a failure
// instead of a hung test run) and expects its status, its message and none of a library's own
// words (std::, CLI11's, toml++'s) on stderr.
inline void expect_refusals(const std::vector<expected_refusal>& cases) {
  for (const auto& c : cases) {
    const auto r = run_command("timeout -s KILL 60 " + std::string(KINEVO_BINARY) + " " + c.args);
    EXPECT_EQ(r.status, c.status) << "kinevo " << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << "kinevo " << c.args << "\n" << r.err;
    for (const char* internal : {"std::", "At Most", "utf-8 sequence", "toml::", "CLI::"}) {
      EXPECT_EQ(r.err.find(internal), std::string::npos) << "kinevo " << c.args << "\n" << r.err;
    }
  }
}

}  // namespace kinevo::test
