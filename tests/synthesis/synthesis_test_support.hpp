// Helpers shared by several test files of test_synthesis (one definition, so that the files can
// be compiled together in a unity batch).
#pragma once

#include <numbers>
#include <string>

#include "kinevo/synthesis/linkages/input_tables.hpp"

namespace kinevo::test {

inline constexpr double deg = std::numbers::pi / 180.0;

// The Grashof paper's Table 1 (tests/data/synthesis/grashof_table1.csv).
inline synthesis::function_table grashof_table1() {
  return synthesis::read_function_table(
      std::string(KINEVO_TEST_DATA) + "/synthesis/grashof_table1.csv", false, 3, "test");
}

}  // namespace kinevo::test
