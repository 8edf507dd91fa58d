// Helpers shared by several end-to-end test files of test_cli (one definition, so that the files
// can be compiled together in a unity batch): the examples folder, text files, and the JSON
// a kinevo command prints.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/run_command.hpp"

namespace kinevo::test {

// The examples folder (KINEVO_EXAMPLES) and one file in it.
inline const std::string examples = KINEVO_EXAMPLES;
inline std::string example(const std::string& name) {
  return std::string(KINEVO_EXAMPLES) + "/" + name;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Runs `kinevo <args> --json`, expects exit status `status` and parses stdout (throws, failing
// the test, unless stdout is one JSON object).
inline nlohmann::json json_of(const std::string& args, int status = 0) {
  const auto r = run_kinevo(args + " --json");
  EXPECT_EQ(r.status, status) << r.err;
  return nlohmann::json::parse(r.out);
}

}  // namespace kinevo::test
