// The CEC 2006 problem files (examples/cec2006/g01.toml ... g24.toml) against the report they
// transcribe: Liang et al., "Problem Definitions and Evaluation Criteria for the CEC 2006
// Special Session on Constrained Real-Parameter Optimization" (technical report, 2006). Each
// file's comment block carries the best-known f* and x*; at x* the loaded problem must give
// f* and satisfy its constraints, with the dimension and the numbers of inequalities and
// equalities of the report's Table 1. The point-by-point comparison with pagmo2's own
// implementation is bench/compare_pagmo_cec2006_files.cpp (pagmo is bench-only).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <ostream>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "kinevo/symbolic/optimization_problem.hpp"

namespace kinevo::symbolic {
namespace {

struct cec_case {
  int id;
  int n;             // variables
  int inequalities;  // report Table 1: LI + NI
  int equalities;    // report Table 1: LE + NE
  // |f(x*) - f*| allowed, relative to max(1, |f*|).
  double f_tolerance = 1e-6;
  // Largest violation allowed at x*: max(0, g) and |h|.
  double g_tolerance = 1e-6;
  // The CEC 2006 tolerance for equalities, |h| <= 1e-4, and 1e-6 of it for the printed digits:
  // the published points use all of the tolerance (the optimisers that found them accepted
  // |h| = 1e-4), and with the digits published |h| is 1e-4 plus up to 1.2e-12 (g21 h2).
  double h_tolerance = 1e-4 * (1 + 1e-6);
  const char* why = "";  // the reason for a loosened tolerance
};

const std::vector<cec_case>& cases() {
  static const std::vector<cec_case> table = {
      {1, 13, 9, 0},
      {2, 20, 2, 0},
      {3, 10, 0, 1},
      {4, 5, 6, 0},
      {5, 4, 2, 3},
      {6, 2, 2, 0},
      {7, 10, 8, 0},
      {8, 2, 2, 0},
      {9, 7, 4, 0},
      {10, 8, 6, 0},
      {11, 2, 0, 1},
      {12, 3, 1, 0},
      {13, 5, 0, 3},
      {14, 10, 0, 3},
      {15, 3, 0, 2},
      {16, 5, 38, 0},
      {17, 6, 0, 4},
      {18, 9, 13, 0},
      {19, 15, 5, 0},
      // No feasible solution of g20 is known: g1..g6 are ratios of nonnegative sums, <= 0 only
      // where their numerators vanish. The report's best point meets the equalities to 1e-4 but
      // has g1 = 0.144 (x13 = 0.158); the bound is that violation, rounded up.
      {20, 24, 6, 14, 1e-6, 0.15, 1e-4 * (1 + 1e-6), "the best-known point of g20 is infeasible"},
      {21, 7, 1, 5},
      {22, 22, 1, 19},
      {23, 9, 2, 4},
      {24, 2, 2, 0},
  };
  return table;
}

std::string file_of(int id) {
  return fmt::format("{}/cec2006/g{:02d}.toml", KINEVO_EXAMPLES, id);
}

// The two machine-readable comment lines of a problem file.
// ctest lists the case by its problem number rather than by the struct's bytes.
void PrintTo(const cec_case& c, std::ostream* os) {
  *os << "g" << (c.id < 10 ? "0" : "") << c.id;
}

struct best_known {
  double f = std::nan("");
  std::vector<double> x;
};

// The text after `prefix` on a line that starts with it (no std::regex: GCC 12's sanitizer build
// warns inside <regex> and warnings are errors).
bool after_prefix(const std::string& line, const std::string& prefix, std::string& rest) {
  if (line.rfind(prefix, 0) != 0) return false;
  rest = line.substr(prefix.size());
  while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back()))) rest.pop_back();
  return true;
}

best_known read_best_known(const std::string& path) {
  std::ifstream in(path);
  best_known b;
  std::string line;
  std::string rest;
  while (std::getline(in, line)) {
    if (after_prefix(line, "# best-known f* = ", rest)) {
      b.f = std::strtod(rest.c_str(), nullptr);
    } else if (after_prefix(line, "# best-known x* = [", rest) && !rest.empty() &&
               rest.back() == ']') {
      rest.pop_back();
      std::stringstream items(rest);
      std::string item;
      while (std::getline(items, item, ',')) b.x.push_back(std::strtod(item.c_str(), nullptr));
    }
  }
  return b;
}

// "g" or "h" followed by a number.
bool named_like(const std::string& name, char letter) {
  return name.size() >= 2 && name[0] == letter &&
         std::all_of(name.begin() + 1, name.end(),
                     [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; });
}

class Cec2006File : public ::testing::TestWithParam<cec_case> {};

TEST_P(Cec2006File, MatchesTheReportAtTheBestKnownPoint) {
  const cec_case& c = GetParam();
  const std::string path = file_of(c.id);
  SCOPED_TRACE(path);
  const best_known best = read_best_known(path);
  ASSERT_TRUE(std::isfinite(best.f)) << "no '# best-known f* = ' line";
  ASSERT_EQ(static_cast<int>(best.x.size()), c.n) << "the '# best-known x* = [...]' line";

  const auto problem = load_optimization_problem(path);
  ASSERT_EQ(problem->dimension(), c.n);
  for (int i = 0; i < c.n; ++i) {
    EXPECT_EQ(problem->variable_names()[static_cast<std::size_t>(i)], fmt::format("x{}", i + 1));
  }
  int inequalities = 0;
  int equalities = 0;
  for (const auto& k : problem->constraints()) {
    // Named as in the report: g1, g2, ... for g <= 0 and h1, h2, ... for h = 0.
    EXPECT_TRUE(named_like(k.name, k.equality ? 'h' : 'g')) << k.name;
    ++(k.equality ? equalities : inequalities);
  }
  EXPECT_EQ(inequalities, c.inequalities);
  EXPECT_EQ(equalities, c.equalities);

  const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(best.x.data(), c.n);
  const Eigen::VectorXd lo = problem->lower_bounds();
  const Eigen::VectorXd hi = problem->upper_bounds();
  for (int i = 0; i < c.n; ++i) {
    EXPECT_GE(x[i], lo[i]) << "x" << i + 1;
    EXPECT_LE(x[i], hi[i]) << "x" << i + 1;
  }

  const double f = problem->objective(x);
  EXPECT_NEAR(f, best.f, c.f_tolerance * std::max(1.0, std::abs(best.f))) << c.why;
  const Eigen::VectorXd values = problem->constraint_values(x);
  for (std::size_t k = 0; k < problem->constraints().size(); ++k) {
    const auto& info = problem->constraints()[k];
    const double v = values[static_cast<Eigen::Index>(k)];
    if (info.equality) {
      EXPECT_LE(std::abs(v), c.h_tolerance)
          << info.name << " = " << fmt::format("{:.17g}", v) << " " << c.why;
    } else {
      EXPECT_LE(v, c.g_tolerance) << info.name << " = " << fmt::format("{:.17g}", v) << " "
                                  << c.why;
    }
  }
}

std::string case_name(const ::testing::TestParamInfo<cec_case>& info) {
  return fmt::format("g{:02d}", info.param.id);
}

INSTANTIATE_TEST_SUITE_P(Report, Cec2006File, ::testing::ValuesIn(cases()), case_name);

// The folder holds exactly the table's files: a new or renamed file is not silently skipped.
TEST(Cec2006Files, TheFolderHoldsTheTwentyFourProblems) {
  std::vector<std::string> found;
  for (const auto& e :
       std::filesystem::directory_iterator(fmt::format("{}/cec2006", KINEVO_EXAMPLES))) {
    found.push_back(e.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> expected;
  for (const auto& c : cases()) expected.push_back(file_of(c.id));
  EXPECT_EQ(found, expected);
  EXPECT_EQ(cases().size(), 24u);
}

}  // namespace
}  // namespace kinevo::symbolic
