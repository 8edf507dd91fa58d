// The g3 generation model (Deb, Anand and Joshi 2002, sec. 4) with everything the island model
// has: a generation is ceil(population / offspring) family steps of `offspring` candidates,
// the result does not depend on the thread
// count (islands, migration), a checkpointed run resumes to the uninterrupted result, the best
// never worsens (the replacement keeps the best of each family, also under Deb's rules), and
// it reaches the optimum of a smooth non-separable problem.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "constrained_test_problems.hpp"
#include "ga_test_support.hpp"
#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/detail/checkpoint_file.hpp"
#include "kinevo/ga/detail/ill_conditioned_functions.hpp"
#include "kinevo/ga/detail/island.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/errors.hpp"

namespace kinevo::ga {
namespace {

using testing::expect_same;
using testing::generations;

island_options g3_islands(int k, int threads, topology t = topology::ring) {
  island_options o;
  o.islands = k;
  o.links = t;
  o.migration_interval = 7;
  o.migrants = 2;
  o.threads = threads;
  o.seed = 19;
  return o;
}

std::vector<ga_options> g3_variants() {
  std::vector<ga_options> v;
  for (const auto c : {crossover_method::pcx, crossover_method::undx, crossover_method::spx}) {
    ga_options o = g3_pcx_options();
    o.population = 30;
    o.crossover = c;
    o.parents = c == crossover_method::spx ? 6 : 3;
    v.push_back(o);
  }
  ga_options metric = g3_pcx_metric_options();  // pcx in a learned metric
  metric.population = 30;
  v.push_back(metric);
  // Decomposed rarely, so that members keep their mapped u (the island's cache) across many
  // family steps: a stale one would make the uninterrupted run differ from a resumed one.
  metric.metric_lazy = 50;
  v.push_back(metric);
  metric.metric_root_kind = metric_root::cholesky;  // the Gauss solver's root
  v.push_back(metric);
  return v;
}

std::string name_of(const ga_options& o) {
  return to_string(o.crossover) + (o.metric == metric_model::learned ? " learned metric" : "") +
         (o.metric_lazy > 1 ? " (lazy)" : "") +
         (o.metric_root_kind == metric_root::cholesky ? " (cholesky)" : "");
}

// A generation is about a population's worth of evaluations, as under the generational model:
// ceil(100 / 3) = 34 family steps of 3 children.
TEST(G3Model, AGenerationIsAPopulationOfFamilySteps) {
  ga_options o = g3_pcx_options();
  o.offspring = 3;
  EXPECT_EQ(o.family_steps(), 34);
  EXPECT_EQ(o.offspring_per_generation(), 102);
  o.offspring = 2;
  EXPECT_EQ(o.offspring_per_generation(), 100);
  o.offspring = 3;
  ellipsoid_function p(5);
  island_model m(o, g3_islands(2, 1));
  const auto r = m.run(p, search_box::of(p), generations(40));
  EXPECT_EQ(r.evaluations, 2 * (o.population + 40 * 102));
  EXPECT_EQ(r.generations, 40);
}

TEST(G3Model, SameResultWhateverTheThreadCountAndTopology) {
  double_sum_function p(6);
  for (const auto& o : g3_variants()) {
    for (const auto t : {topology::ring, topology::fully_connected, topology::random}) {
      SCOPED_TRACE(name_of(o) + " " + to_string(t));
      island_model one(o, g3_islands(4, 1, t));
      island_model three(o, g3_islands(4, 3, t));
      expect_same(one.run(p, search_box::of(p), generations(300)),
                  three.run(p, search_box::of(p), generations(300)));
    }
  }
}

TEST(G3Model, ResumeFromACheckpointReachesTheUninterruptedResult) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_g3_checkpoint_test";
  std::filesystem::create_directories(dir);
  rosenbrock_function p(5);
  for (const auto& o : g3_variants()) {
    SCOPED_TRACE(name_of(o));
    island_model m(o, g3_islands(3, 2, topology::random));
    termination stall = generations(500);
    stall.stall_generations = 100000;
    const auto straight = m.run(p, search_box::of(p), stall);
    run_settings s;
    s.checkpoint_file = dir / "state.txt";
    s.checkpoint_every = 100;
    island_model m2(o, g3_islands(3, 1, topology::random));
    m2.run(p, search_box::of(p), generations(250), s);  // last checkpoint at 200
    island_model m3(o, g3_islands(3, 3, topology::random));
    expect_same(straight, m3.resume(p, dir / "state.txt", stall));
  }
  std::filesystem::remove_all(dir);
}

// A learned-metric checkpoint written before the members' kept u's were saved (its island
// sections end after the metric) resumes with every u mapped again: the run continues to its
// limit and keeps its best. A kept-u line that does not parse is refused, naming the member.
TEST(G3Model, ACheckpointWithoutTheKeptCoordinatesResumes) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_g3_old_checkpoint_test";
  std::filesystem::create_directories(dir);
  rosenbrock_function p(5);
  ga_options o = g3_pcx_metric_options();
  o.population = 30;
  o.metric_lazy = 50;
  run_settings s;
  s.checkpoint_file = dir / "state.txt";
  s.checkpoint_every = 100;
  island_model m(o, g3_islands(3, 1, topology::random));
  m.run(p, search_box::of(p), generations(250), s);  // last checkpoint at 200
  checkpoint_contents c = read_checkpoint_file(dir / "state.txt", 5);
  checkpoint_contents broken = c;
  for (auto& [index, section] : c.islands) {
    const auto at = section.text.find("member_u");
    ASSERT_NE(at, std::string::npos) << "island " << index;
    broken.islands[index].text = section.text.substr(0, at) + "member_u 1 0x1p+0\n";
    section.text.erase(at);
  }
  write_checkpoint_file(dir / "old.txt", c);
  write_checkpoint_file(dir / "broken.txt", broken);
  island_model resumed(o, g3_islands(3, 1, topology::random));
  const run_result r = resumed.resume(p, dir / "old.txt", generations(400));
  EXPECT_EQ(r.generations, 400);
  island_model again(o, g3_islands(3, 1, topology::random));
  const run_result to_200 = again.resume(p, dir / "state.txt", generations(200));
  EXPECT_LE(r.best_value, to_200.best_value);
  try {
    island_model bad(o, g3_islands(3, 1, topology::random));
    bad.resume(p, dir / "broken.txt", generations(400));
    ADD_FAILURE() << "a truncated kept-u line was accepted";
  } catch (const io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("member"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// Deb's rules choose the index parent and the survivors: the best of the population by those
// rules never worsens from one generation to the next (read from the island's state), and the
// run ends feasible.
TEST(G3Model, TheBestNeverWorsensUnderDebsRules) {
  const testing::cec2006_g06 g06;
  constraint_options co;
  co.method = constraint_handling::feasibility;
  const constrained_objective p(g06, co);
  ga_options o = g3_pcx_options();
  o.constraints = constraint_handling::feasibility;
  island isl;
  isl.configure(o, 2);
  isl.start(p, search_box::of(p), 4, 0, 0, nullptr);
  // (value, violation) of the population's best by Deb's rules.
  const auto best_of = [&] {
    std::ostringstream os;
    isl.save(os);
    std::istringstream in(os.str());
    std::string line;
    std::pair<double, double> best{0.0, std::numeric_limits<double>::infinity()};
    while (std::getline(in, line)) {
      if (line.rfind("individual ", 0) != 0) continue;
      std::istringstream s(line.substr(11));
      std::string f, v;
      s >> f >> v;
      const double fv = std::strtod(f.c_str(), nullptr), vv = std::strtod(v.c_str(), nullptr);
      if (precedes(fv, vv, best.first, best.second, 0.0)) best = {fv, vv};
    }
    return best;
  };
  auto last = best_of();
  for (int g = 1; g <= 5000; ++g) {
    isl.step(p);
    const auto now = best_of();
    ASSERT_FALSE(precedes(last.first, last.second, now.first, now.second, 0.0))
        << "generation " << g << ": (" << now.first << ", " << now.second << ") after ("
        << last.first << ", " << last.second << ")";
    last = now;
  }
  EXPECT_EQ(isl.best_violation(), 0.0);
  EXPECT_TRUE(p.feasible(isl.best_x()));
  EXPECT_GE(isl.best_value(), testing::cec2006_g06::best_known * (1.0 + 1e-12));
}

// The rotated ellipsoid of condition 1e6 at n = 5 to 1e-10: the G3-PCX defaults get there.
TEST(G3Model, ReachesTheOptimumOfARotatedIllConditionedQuadratic) {
  rotated_ellipsoid_function p(5);
  island_model m(g3_pcx_options(), g3_islands(1, 1));
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 200000;
  t.target_value = 1e-10;
  const auto r = m.run(p, search_box::of(p), t);
  EXPECT_EQ(r.reason, stop_reason::target) << r.best_value;
}

// The learned metric on the rotated ellipsoid of condition 1e6 at n = 10, Deb et al.'s start
// ([-10, -5]^n): f <= 1e-20 within 20,000 evaluations (measured: about 10,000; the isotropic
// G3-PCX does not get there within 200,000, docs/benchmarks.md), i.e. the metric has learned
// the valley's shape. Both roots: the Cholesky one draws children of the same distribution.
TEST(G3Model, ALearnedMetricFollowsARotatedIllConditionedValley) {
  const int n = 10;
  rotated_ellipsoid_function p(n);
  const search_box box{Eigen::VectorXd::Constant(n, -50.0), Eigen::VectorXd::Constant(n, 50.0)};
  const search_box start{Eigen::VectorXd::Constant(n, -10.0), Eigen::VectorXd::Constant(n, -5.0)};
  run_settings s;
  s.initial_box = &start;
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 20000;
  t.target_value = 1e-20;
  for (const std::uint64_t seed : {1, 2, 3}) {
    island_options io = g3_islands(1, 1);
    io.seed = seed;
    for (const metric_root root : {metric_root::symmetric, metric_root::cholesky}) {
      ga_options o = g3_pcx_metric_options();
      o.metric_root_kind = root;
      island_model learned(o, io);
      const auto r = learned.run(p, box, t, s);
      EXPECT_EQ(r.reason, stop_reason::target)
          << "seed " << seed << ", " << to_string(root) << ": " << r.best_value;
    }
    island_model isotropic(g3_pcx_options(), io);
    EXPECT_GT(isotropic.run(p, box, t, s).best_value, 1e-10) << "seed " << seed;
  }
}

// metric_carry: a second run of the same model starts from the metric the first one learned,
// so the same run index no longer repeats the first run's bits; without it every run starts at
// C = I and repeats them. Both are the same with threads and as checkpointed.
TEST(G3Model, ACarriedMetricStartsTheNextRunWhereTheLastEnded) {
  const int n = 6;
  rotated_ellipsoid_function p(n);
  const search_box box{Eigen::VectorXd::Constant(n, -5.0), Eigen::VectorXd::Constant(n, 5.0)};
  termination t;
  t.max_generations = 0;
  t.max_evaluations = 3000;
  run_settings s;
  s.run_index = 3;
  ga_options plain = g3_pcx_metric_options();
  island_model forgets(plain, g3_islands(1, 1));
  const auto a1 = forgets.run(p, box, t, s);
  const auto a2 = forgets.run(p, box, t, s);
  EXPECT_EQ(a1.best_x, a2.best_x);
  ga_options carry = plain;
  carry.metric_carry = true;
  island_model keeps(carry, g3_islands(1, 1));
  const auto b1 = keeps.run(p, box, t, s);
  const auto b2 = keeps.run(p, box, t, s);
  EXPECT_EQ(b1.best_x, a1.best_x);  // the first run starts at C = I either way
  EXPECT_NE(b2.best_x, b1.best_x);
  // The second run, started in the learned metric, gets further with the same budget.
  EXPECT_LT(b2.best_value, b1.best_value);
}

}  // namespace
}  // namespace kinevo::ga
