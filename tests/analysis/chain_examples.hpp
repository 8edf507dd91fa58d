// The chains of the tests: the worked examples (analysis/example_chains.hpp) under the short
// names the tests use, a DH row builder and the test data folder.
#pragma once

#include <numbers>
#include <string>

#include "kinevo/analysis/example_chains.hpp"

namespace kinevo::test {

inline constexpr double deg = std::numbers::pi / 180.0;

inline analysis::dh_link link(double a, double b, double alpha_deg,
                              analysis::pair_kind pair = analysis::pair_kind::revolute) {
  return analysis::dh_row(a, b, alpha_deg, pair);
}

inline analysis::closed_chain seven_r() {
  return analysis::seven_r_example();
}
using analysis::hexflex_start;
using analysis::hexflex_target;
using analysis::rsrc_start;
using analysis::seven_r_branch;
inline analysis::closed_chain rsrc() {
  return analysis::rsrc_example();
}
inline analysis::guidance_chain hexflex() {
  return analysis::hexflex_example();
}

inline std::string test_data(const std::string& name) {
  return std::string(KINEVO_TEST_DATA) + "/analysis/" + name;
}

}  // namespace kinevo::test
