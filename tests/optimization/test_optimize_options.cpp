// The options contract of `kinevo optimize` (pagmo2's per-algorithm tests are the model): every
// field out of range throws io::option_error naming the field; the enum round-trips.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "kinevo/io/option_error.hpp"
#include "kinevo/optimization/optimize_options.hpp"

namespace kinevo::optimization {
namespace {

std::string options_error_field(const std::function<void(optimize_options&)>& change) {
  optimize_options o;
  change(o);
  try {
    o.validate();
  } catch (const io::option_error& e) {
    return e.field();
  }
  return "(valid)";
}

TEST(OptimizeOptions, DefaultsAreValid) {
  EXPECT_NO_THROW(optimize_options{}.validate());
}

TEST(OptimizeOptions, EveryInvalidFieldThrowsNamingIt) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct bad_case {
    const char* field;
    std::function<void(optimize_options&)> change;
  };
  const std::vector<bad_case> cases{
      {"dim", [](auto& o) { o.dim = 0; }},
      {"lower",
       [&](auto& o) {
         o.lower = {0.0, nan};
       }},
      {"upper", [&](auto& o) { o.upper = {inf}; }},
      {"function",
       [](auto& o) {
         o.problem_file = "p.toml";
         o.given = {"function"};
       }},
      {"dim",
       [](auto& o) {
         o.problem_file = "p.toml";
         o.given = {"dim"};
       }},
      {"cost_us", [](auto& o) { o.cost_us = -1.0; }},
      {"population", [](auto& o) { o.ga.population = 1; }},
      {"islands", [](auto& o) { o.islands.islands = 0; }},
      {"migration_interval", [](auto& o) { o.islands.migration_interval = 0; }},
      {"migrants", [](auto& o) { o.islands.migrants = -1; }},
      {"threads", [](auto& o) { o.islands.threads = -1; }},
      {"threads", [](auto& o) { o.islands.threads = 1'000'000; }},
      {"bits", [](auto& o) { o.ga.bits_per_variable = 33; }},
      {"elites", [](auto& o) { o.ga.elites = -1; }},
      {"generations", [](auto& o) { o.limits.max_generations = -1; }},
      {"max_evals", [](auto& o) { o.limits.max_evaluations = -1; }},
      {"stall_generations", [](auto& o) { o.limits.stall_generations = -5; }},
      {"stall_tolerance", [&](auto& o) { o.limits.stall_tolerance = nan; }},
      {"max_seconds", [](auto& o) { o.limits.max_seconds = -1.0; }},
      {"max_seconds", [&](auto& o) { o.limits.max_seconds = inf; }},
      {"target", [&](auto& o) { o.limits.target_value = nan; }},
      {"target", [&](auto& o) { o.limits.target_value = inf; }},
      {"range_runs", [](auto& o) { o.range.runs = 0; }},
      {"shrink", [](auto& o) { o.range.shrink = 0.0; }},
      {"shrink", [](auto& o) { o.range.shrink = 1.5; }},
      {"move_factor", [&](auto& o) { o.range.move_factor = nan; }},
      {"move_floor", [](auto& o) { o.range.move_floor = 2.0; }},
      {"first_run_budget", [](auto& o) { o.range.first_run_budget = 0.0; }},
      {"checkpoint_every", [](auto& o) { o.checkpoint_every = -1; }},
      {"checkpoint_every", [](auto& o) { o.checkpoint_every = 5; }},  // without a checkpoint
  };
  for (const auto& c : cases) EXPECT_EQ(options_error_field(c.change), c.field) << c.field;
}

TEST(OptimizeOptions, MessagesSayTheAllowedRange) {
  optimize_options o;
  o.limits.max_evaluations = -3;
  try {
    o.validate();
    FAIL() << "no error";
  } catch (const io::option_error& e) {
    EXPECT_EQ(std::string(e.what()), "max_evals must be an integer >= 0 (got -3)");
  }
}

TEST(OptimizeOptions, PresetRoundTripsThroughToStringAndParse) {
  for (const preset p :
       {preset::plain, preset::tuned, preset::constrained, preset::g3_pcx, preset::g3_pcx_metric}) {
    EXPECT_EQ(parse_preset(to_string(p)), p);
  }
  EXPECT_EQ(to_string(preset::g3_pcx), "g3-pcx");
  EXPECT_EQ(to_string(preset::g3_pcx_metric), "g3-pcx-metric");
  EXPECT_THROW((void)parse_preset("tunde"), std::invalid_argument);
}

TEST(OptimizeOptions, GaEnumsRoundTrip) {
  for (const auto e : {ga::encoding::real, ga::encoding::binary, ga::encoding::gray}) {
    EXPECT_EQ(ga::parse_encoding(ga::to_string(e)), e);
  }
  for (const auto t : {ga::topology::ring, ga::topology::fully_connected, ga::topology::random,
                       ga::topology::unconnected}) {
    EXPECT_EQ(ga::parse_topology(ga::to_string(t)), t);
  }
}

TEST(OptimizeOptions, UnknownMethodAndRefinementNameTheirOption) {
  EXPECT_EQ(parse_method("sanlsu"), method::sanlsu);
  EXPECT_TRUE(parse_refine("sanlsu"));
  EXPECT_FALSE(parse_refine("none"));
  const auto field_of = [](const std::function<void()>& parse) {
    try {
      parse();
    } catch (const io::option_error& e) {
      return e.field();
    }
    return std::string("nothing thrown");
  };
  EXPECT_EQ(field_of([] { (void)parse_method("simplex"); }), "method");
  EXPECT_EQ(field_of([] { (void)parse_refine("newton"); }), "refine");
}

}  // namespace
}  // namespace kinevo::optimization
