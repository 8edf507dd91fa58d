// The mgg generation model (minimal generation gap, Satoh, Yamamura and Kobayashi 1996; the
// model UNDX was designed for): its survivor rule against its definition (the family's best and
// a rank-roulette draw with P(k) = (size - k) / ((size - 1) size / 2)), a family step that
// changes at most the two parents' slots and never loses the population's best (also under
// Deb's rules), results that do not depend on the thread count or the topology, checkpoint
// resume and range runs, the options' validation, and the optimum of a non-separable
// quadratic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "constrained_test_problems.hpp"
#include "ga_test_support.hpp"
#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/ga/detail/island.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/detail/minimal_generation_gap.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {
namespace {

using testing::expect_same;
using testing::generations;

island_options mgg_islands(int k, int threads, topology t = topology::ring) {
  island_options o;
  o.islands = k;
  o.links = t;
  o.migration_interval = 7;
  o.migrants = 2;
  o.threads = threads;
  o.seed = 23;
  return o;
}

ga_options mgg_options(crossover_method c) {
  ga_options o = g3_pcx_options();
  o.model = generation_model::mgg;
  o.population = 30;
  o.crossover = c;
  o.parents = c == crossover_method::spx ? 6 : 3;
  o.offspring = 6;
  return o;
}

std::vector<ga_options> mgg_variants() {
  std::vector<ga_options> v;
  for (const auto c : {crossover_method::pcx, crossover_method::undx, crossover_method::spx}) {
    v.push_back(mgg_options(c));
  }
  return v;
}

// The roulette's frequencies from 600,000 draws against (size - k) / ((size - 1) size / 2),
// within 5 standard deviations; the elite is always position 0 and never drawn again.
TEST(MggModel, SurvivorRuleFollowsItsDefinition) {
  random_stream rng(3, 0, 0);
  for (const int size : {2, 3, 6, 12}) {
    SCOPED_TRACE(size);
    const int draws = 600000;
    std::vector<int> count(size, 0);
    for (int d = 0; d < draws; ++d) {
      const auto s = mgg_survivor_positions(size, rng);
      ASSERT_EQ(s[0], 0);
      ASSERT_GE(s[1], 1);
      ASSERT_LT(s[1], size);
      ++count[s[1]];
    }
    double total = 0.0;
    for (int k = 1; k < size; ++k) {
      const double p = mgg_roulette_probability(size, k);
      total += p;
      EXPECT_NEAR(p, (size - k) / (0.5 * (size - 1) * size), 1e-15);
      const double sd = std::sqrt(draws * p * (1.0 - p));
      EXPECT_NEAR(count[k], draws * p, 5.0 * sd + 1e-9) << "position " << k;
    }
    EXPECT_NEAR(total, 1.0, 1e-14);
  }
}

// The (value, violation) pairs of an island's population, read from its saved state.
std::vector<std::pair<double, double>> population_of(island& isl) {
  std::ostringstream os;
  isl.save(os);
  std::istringstream in(os.str());
  std::string line;
  std::vector<std::pair<double, double>> out;
  while (std::getline(in, line)) {
    if (line.rfind("individual ", 0) != 0) continue;
    std::istringstream s(line.substr(11));
    std::string f, v;
    s >> f >> v;
    out.emplace_back(std::strtod(f.c_str(), nullptr), std::strtod(v.c_str(), nullptr));
  }
  return out;
}

// With population 4 and 4 children a generation is one family step: at most the two parents'
// slots change, and by Deb's rules the population's best never worsens (the family's best
// survives). With population 30 the run ends feasible on g06.
TEST(MggModel, AFamilyStepReplacesAtMostTwoMembersAndKeepsTheBest) {
  const testing::cec2006_g06 g06;
  constraint_options co;
  co.method = constraint_handling::feasibility;
  const constrained_objective p(g06, co);
  ga_options o = mgg_options(crossover_method::undx);
  o.population = 4;
  o.offspring = 4;
  o.constraints = constraint_handling::feasibility;
  ASSERT_EQ(o.family_steps(), 1);
  island isl;
  isl.configure(o, 2);
  isl.start(p, search_box::of(p), 4, 0, 0, nullptr);
  const auto best_of = [](const std::vector<std::pair<double, double>>& pop) {
    std::pair<double, double> best{0.0, std::numeric_limits<double>::infinity()};
    for (const auto& [f, v] : pop) {
      if (precedes(f, v, best.first, best.second, 0.0)) best = {f, v};
    }
    return best;
  };
  auto last = population_of(isl);
  ASSERT_EQ(last.size(), 4u);
  for (int g = 1; g <= 3000; ++g) {
    isl.step(p);
    const auto now = population_of(isl);
    int changed = 0;
    for (std::size_t i = 0; i < now.size(); ++i) changed += now[i] != last[i] ? 1 : 0;
    ASSERT_LE(changed, 2) << "generation " << g;
    const auto b0 = best_of(last), b1 = best_of(now);
    ASSERT_FALSE(precedes(b0.first, b0.second, b1.first, b1.second, 0.0)) << "generation " << g;
    last = now;
  }
  ga_options larger = mgg_options(crossover_method::undx);
  larger.constraints = constraint_handling::feasibility;
  island_model m(larger, mgg_islands(2, 1));
  const auto r = m.run(p, search_box::of(p), generations(300));
  EXPECT_EQ(r.best_violation, 0.0);
  EXPECT_TRUE(p.feasible(r.best_x));
}

TEST(MggModel, SameResultWhateverTheThreadCountAndTopology) {
  double_sum_function p(6);
  for (const auto& o : mgg_variants()) {
    for (const auto t : {topology::ring, topology::fully_connected, topology::random}) {
      SCOPED_TRACE(to_string(o.crossover) + " " + to_string(t));
      island_model one(o, mgg_islands(4, 1, t));
      island_model three(o, mgg_islands(4, 3, t));
      const auto a = one.run(p, search_box::of(p), generations(200));
      expect_same(a, three.run(p, search_box::of(p), generations(200)));
      // A generation is ceil(30 / 6) = 5 family steps of 6 children.
      EXPECT_EQ(a.evaluations, 4 * (30 + 200 * 30));
    }
  }
}

// The same seed under g3 and mgg gives different runs (the model is really switched).
TEST(MggModel, DiffersFromG3) {
  ellipsoid_function p(5);
  ga_options o = mgg_options(crossover_method::pcx);
  island_model mgg(o, mgg_islands(1, 1));
  o.model = generation_model::g3;
  island_model g3(o, mgg_islands(1, 1));
  EXPECT_NE(mgg.run(p, search_box::of(p), generations(20)).best_value,
            g3.run(p, search_box::of(p), generations(20)).best_value);
}

TEST(MggModel, ResumeFromACheckpointReachesTheUninterruptedResult) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_mgg_checkpoint_test";
  std::filesystem::create_directories(dir);
  rosenbrock_function p(5);
  for (const auto& o : mgg_variants()) {
    SCOPED_TRACE(to_string(o.crossover));
    island_model m(o, mgg_islands(3, 2, topology::random));
    termination stall = generations(300);
    stall.stall_generations = 100000;
    const auto straight = m.run(p, search_box::of(p), stall);
    run_settings s;
    s.checkpoint_file = dir / "state.txt";
    s.checkpoint_every = 100;
    island_model m2(o, mgg_islands(3, 1, topology::random));
    m2.run(p, search_box::of(p), generations(150), s);  // last checkpoint at 100
    island_model m3(o, mgg_islands(3, 3, topology::random));
    expect_same(straight, m3.resume(p, dir / "state.txt", stall));
    // A g3 checkpoint is not an mgg one: the fingerprint names the model.
    ga_options g3 = o;
    g3.model = generation_model::g3;
    island_model other(g3, mgg_islands(3, 1, topology::random));
    EXPECT_THROW(other.resume(p, dir / "state.txt", stall), std::exception);
  }
  std::filesystem::remove_all(dir);
}

// Range runs (re-centred, shrinking boxes) with mgg: the same on 1 and 3 threads, and the
// best of the last run is at least as good as the first's.
TEST(MggModel, RangeRunsDoNotDependOnTheThreadCount) {
  rotated_ellipsoid_function p(4);
  const ga_options o = mgg_options(crossover_method::undx);
  range_run_options ro;
  ro.runs = 3;
  ro.shrink = 0.5;
  island_model one(o, mgg_islands(2, 1));
  island_model three(o, mgg_islands(2, 3));
  const auto a = run_range_runs(one, p, search_box::of(p), generations(40), ro);
  const auto b = run_range_runs(three, p, search_box::of(p), generations(40), ro);
  ASSERT_EQ(a.runs.size(), 3u);
  ASSERT_EQ(b.runs.size(), 3u);
  EXPECT_EQ(a.best_x, b.best_x);
  EXPECT_EQ(a.best_value, b.best_value);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_LE(a.runs.back().result.best_value, a.runs.front().result.best_value);
}

// mgg is for the multi-parent crossovers on real genes, like g3; each error names its field.
TEST(MggModel, OptionsAreValidated) {
  ga_options o = mgg_options(crossover_method::undx);
  EXPECT_NO_THROW(o.validate());
  EXPECT_EQ(parse_generation_model("mgg"), generation_model::mgg);
  EXPECT_EQ(to_string(generation_model::mgg), "mgg");
  const auto field_of = [](const ga_options& bad) {
    try {
      bad.validate();
    } catch (const io::option_error& e) {
      return e.field();
    }
    return std::string("(no error)");
  };
  ga_options sbx = o;
  sbx.crossover = crossover_method::sbx;
  EXPECT_EQ(field_of(sbx), "generation_model");
  ga_options binary = o;  // undx is for real genes: the crossover is named first
  binary.genes = encoding::binary;
  EXPECT_EQ(field_of(binary), "crossover");
  ga_options few = o;
  few.parents = 2;  // undx needs 3
  EXPECT_EQ(field_of(few), "parents");
  ga_options none = o;
  none.offspring = 0;
  EXPECT_EQ(field_of(none), "offspring");
}

// Schwefel's double sum (non-separable, optimum 0 at 0) at n = 5 to 1e-20 with MGG-UNDX
// (3 parents, 10 children per family, population 100). The rotated ellipsoid of condition 1e6
// is out of its reach, as of G3-PCX's (docs/ga.md).
TEST(MggModel, ReachesTheOptimumOfANonSeparableQuadratic) {
  double_sum_function p(5);
  ga_options o = mgg_options(crossover_method::undx);
  o.population = 100;
  o.offspring = 10;
  island_model m(o, mgg_islands(1, 1));
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 200000;
  t.target_value = 1e-20;
  const auto r = m.run(p, search_box::of(p), t);
  EXPECT_EQ(r.reason, stop_reason::target) << r.best_value << " after " << r.evaluations;
  EXPECT_LE(r.best_x.cwiseAbs().maxCoeff(), 1e-8);
}

}  // namespace
}  // namespace kinevo::ga
