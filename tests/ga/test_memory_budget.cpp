// Huge settings are refused up front with a message naming them (issue 16, item 11), and the
// estimate is linear in each of islands, population and dimension.
#include "kinevo/ga/detail/memory_budget.hpp"

#include <gtest/gtest.h>

#include <string>

#include "kinevo/ga/test_functions.hpp"

namespace kinevo::ga {
namespace {

TEST(MemoryBudget, EstimateIsLinearInEverySize) {
  ga_options g;
  island_options i;
  const double base = static_cast<double>(island_model_bytes(g, i, 1, 1000));
  EXPECT_GT(base, 101 * 1000 * 32.0);  // at least the four n x (population + 1) arrays
  EXPECT_NEAR(island_model_bytes(g, i, 1, 2000) / base, 2.0, 0.05);
  g.population = 199;  // twice the columns
  EXPECT_NEAR(island_model_bytes(g, i, 1, 1000) / base, 2.0, 0.05);
  g.population = 100;
  i.islands = 4;
  EXPECT_NEAR(island_model_bytes(g, i, 4, 1000) / base, 4.0, 0.2);
  // Absurd sizes saturate instead of overflowing.
  g.population = 2000000000;
  i.islands = 2000000000;
  EXPECT_GT(island_model_bytes(g, i, 2000000000, 2000000000), std::uint64_t{1} << 62);
}

// A learned metric adds at least what its island holds: six n x n matrices (C, the two roots,
// the eigen-solver's) and the members' kept u with the points they came from (2 n each).
TEST(MemoryBudget, ALearnedMetricCountsItsMatricesAndTheMembersKeptCoordinates) {
  ga_options g = g3_pcx_options();
  island_options i;
  const int n = 50;
  const double isotropic = static_cast<double>(island_model_bytes(g, i, 1, n));
  g.metric = metric_model::learned;
  const double learned = static_cast<double>(island_model_bytes(g, i, 1, n));
  EXPECT_GE(learned - isotropic, 8.0 * (6.0 * n * n + 2.0 * n * g.population));
}

TEST(MemoryBudget, TooMuchIsRefusedNamingTheSettings) {
  ga_options g;
  g.population = 1000000;
  island_options i;
  i.islands = 3;
  try {
    require_memory(g, i, 3, 500, std::uint64_t{1} << 30);  // 1 GiB available
    FAIL() << "12 GB accepted on 1 GiB";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("population 1000000 on 3 islands in 500 variables"), std::string::npos) << m;
  }
  EXPECT_NO_THROW(require_memory(ga_options{}, island_options{}, 1, 10, std::uint64_t{1} << 30));
  EXPECT_NO_THROW(require_memory(g, i, 3, 500, 0));  // unknown memory: not checked
  EXPECT_GT(physical_memory_bytes(), 0u);
  // The island model refuses before allocating (a million islands of 100 in 10 variables need
  // tens of GB; the message comes before any of it is allocated).
  island_options many;
  many.islands = 1000000;
  many.threads = 1;
  island_model m(ga_options{}, many);
  sphere_function p(10);
  termination t;
  t.max_generations = 1;
  if (physical_memory_bytes() < island_model_bytes(ga_options{}, many, many.islands, 10)) {
    EXPECT_THROW(m.run(p, search_box::of(p), t), std::invalid_argument);
  }
}

}  // namespace
}  // namespace kinevo::ga
