// The island model on constrained problems (Deb's rules and the epsilon level), with DE
// crossover and integer genes: feasible answers, bit-identical results whatever the thread
// count, topology or interruption, and unconstrained runs unchanged by this machinery.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "constrained_test_problems.hpp"
#include "ga_test_support.hpp"
#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/ga/island_model.hpp"
#include "kinevo/ga/range_runs.hpp"
#include "kinevo/ga/test_functions.hpp"
#include "kinevo/io/errors.hpp"
#include "kinevo/io/interrupt.hpp"

namespace kinevo::ga {
namespace {

using testing::cec2006_g06;
using testing::generations;

island_options constrained_islands(int k, topology t = topology::ring, int threads = 0) {
  island_options o;
  o.islands = k;
  o.links = t;
  o.migration_interval = 10;
  o.migrants = 2;
  o.threads = threads;
  o.seed = 42;
  return o;
}

ga_options constrained_ga(constraint_handling method, crossover_method crossover) {
  ga_options o;
  o.constraints = method;
  o.crossover = crossover;
  return o;
}

constraint_options handled_by(constraint_handling method) {
  constraint_options o;
  o.method = method;
  return o;
}

termination evaluations(long long n) {
  termination t;
  t.max_generations = 0;
  t.max_evaluations = n;
  return t;
}

// expect_same and the best point's violation.
void expect_same_with_violation(const run_result& a, const run_result& b) {
  ASSERT_EQ(a.best_x.size(), b.best_x.size());
  for (int j = 0; j < a.best_x.size(); ++j) EXPECT_EQ(a.best_x[j], b.best_x[j]) << j;
  EXPECT_EQ(a.best_value, b.best_value);
  EXPECT_EQ(a.best_violation, b.best_violation);
  EXPECT_EQ(a.best_island, b.best_island);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.generations, b.generations);
}

const char* name_of(crossover_method c) {
  return c == crossover_method::de ? "de" : "sbx";
}

// g06 with population 100 and 1e5 evaluations (4 islands): a feasible best with Deb's rules and
// with the epsilon level, by SBX and by DE.
TEST(ConstrainedIslandModel, G06FeasibleBestWithFeasibilityAndEpsilonBySbxAndDe) {
  const cec2006_g06 g06;
  for (const auto method : {constraint_handling::feasibility, constraint_handling::epsilon}) {
    for (const auto crossover : {crossover_method::sbx, crossover_method::de}) {
      const constrained_objective p(g06, handled_by(method));
      island_model m(constrained_ga(method, crossover), constrained_islands(4, topology::ring, 2));
      const auto r = m.run(p, search_box::of(p), evaluations(100000));
      ASSERT_EQ(r.best_x.size(), 2);
      const double rel =
          std::abs(r.best_value - cec2006_g06::best_known) / std::abs(cec2006_g06::best_known);
      const std::string what = to_string(method) + ' ' + name_of(crossover);
      EXPECT_EQ(r.best_violation, 0.0) << what;
      EXPECT_TRUE(p.feasible(r.best_x)) << what;
      EXPECT_LE(r.evaluations, 100000) << what;
      // The best is never below the known optimum (it is feasible).
      EXPECT_GE(r.best_value, cec2006_g06::best_known * (1.0 + 1e-12)) << what;
      // What each reaches with this budget (seed 42): DE gets within 1e-5 relative of f*
      // with either handling (2e-6 feasibility, 6e-6 epsilon); SBX stays within 1e-2
      // (8e-3 feasibility, 4e-3 epsilon) - the crescent is too thin for its children.
      if (crossover == crossover_method::de) {
        EXPECT_LT(rel, 1e-4) << what << ": " << r.best_value;
      } else {
        EXPECT_LT(rel, 1e-2) << what << ": " << r.best_value;
      }
    }
  }
}

// A target value counts only for a feasible best: below g06's f* only infeasible points reach
// it (e.g. f(13, 0) = -7973), so the run goes on to its evaluation limit.
TEST(ConstrainedIslandModel, AnInfeasibleValueNeverReachesTheTarget) {
  const cec2006_g06 g06;
  for (const auto method : {constraint_handling::feasibility, constraint_handling::epsilon}) {
    SCOPED_TRACE(to_string(method));
    const constrained_objective p(g06, handled_by(method));
    Eigen::VectorXd v(1), r(1);
    p.evaluate_with_violation(Eigen::Vector2d(13.0, 0.0), v, r);
    ASSERT_LT(v[0], -7000.0);
    ASSERT_GT(r[0], 0.0);
    island_model m(constrained_ga(method, crossover_method::de),
                   constrained_islands(2, topology::ring, 2));
    termination t = evaluations(10000);
    t.target_value = -7000.0;
    const auto res = m.run(p, search_box::of(p), t);
    EXPECT_EQ(res.reason, stop_reason::evaluations);
    EXPECT_EQ(res.best_violation, 0.0);
    EXPECT_GT(res.best_value, -7000.0);
    // A target the feasible best does reach stops the run.
    t.target_value = -6000.0;
    EXPECT_EQ(m.run(p, search_box::of(p), t).reason, stop_reason::target);
  }
}

// A constant objective on a small feasible ball (|x|^2 <= 1e-4 in [-10, 10]^2): only the
// violation improves, which is progress for the stall limit; once feasible, nothing improves.
// (Deb's rules only: under the epsilon level a constant objective makes every candidate within
// eps a tie, so the violation has no pressure until eps falls and the stall limit may end such a
// run early, infeasible - that is the level's nature, not the stall rule's.)
class flat_in_a_ball : public constrained_problem {
 public:
  int dimension() const override { return 2; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::Vector2d(-10.0, -10.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::Vector2d(10.0, 10.0); }
  int constraint_count() const override { return 1; }
  bool is_equality(int) const override { return false; }
  std::string constraint_name(int) const override { return "ball"; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> c) const override {
    values.setConstant(1.0);
    for (Eigen::Index k = 0; k < x.cols(); ++k) c(0, k) = x.col(k).squaredNorm() - 1e-4;
  }
};

TEST(ConstrainedIslandModel, ALessViolatedBestIsProgressForTheStallLimit) {
  const flat_in_a_ball ball;
  const auto method = constraint_handling::feasibility;
  const constrained_objective p(ball, handled_by(method));
  island_model m(constrained_ga(method, crossover_method::sbx),
                 constrained_islands(2, topology::ring, 2));
  termination t = generations(5000);
  t.stall_generations = 20;
  const auto r = m.run(p, search_box::of(p), t);
  EXPECT_EQ(r.reason, stop_reason::stall);
  EXPECT_EQ(r.best_violation, 0.0);
  EXPECT_GT(r.generations, 20);  // the value never changed: a value-only stall ends at 20
}

// Bit for bit the same with 1 and 2 threads, for every topology (epsilon level, DE, migration of
// (value, violation) pairs); and with Deb's rules and SBX on one topology.
TEST(ConstrainedIslandModel, SameResultWhateverTheThreadCountAndTopology) {
  const cec2006_g06 g06;
  for (const auto t :
       {topology::ring, topology::fully_connected, topology::random, topology::unconnected}) {
    const constrained_objective p(g06, handled_by(constraint_handling::epsilon));
    const auto ga = constrained_ga(constraint_handling::epsilon, crossover_method::de);
    island_model one(ga, constrained_islands(4, t, 1));
    island_model two(ga, constrained_islands(4, t, 2));
    const auto a = one.run(p, search_box::of(p), evaluations(20000));
    const auto b = two.run(p, search_box::of(p), evaluations(20000));
    SCOPED_TRACE(to_string(t));
    expect_same_with_violation(a, b);
    EXPECT_EQ(a.best_violation, 0.0);
    // Reusing the model gives the same result again.
    expect_same_with_violation(a, one.run(p, search_box::of(p), evaluations(20000)));
  }
  const constrained_objective p(g06, handled_by(constraint_handling::feasibility));
  const auto ga = constrained_ga(constraint_handling::feasibility, crossover_method::sbx);
  island_model one(ga, constrained_islands(4, topology::random, 1));
  island_model two(ga, constrained_islands(4, topology::random, 2));
  expect_same_with_violation(one.run(p, search_box::of(p), evaluations(20000)),
                             two.run(p, search_box::of(p), evaluations(20000)));
}

// A constrained epsilon run interrupted at a synchronisation point and resumed from its
// checkpoint ends exactly as the uninterrupted one (the epsilon level, violations and the
// best's violation are in the checkpoint), with DE and with SBX.
TEST(ConstrainedIslandModel, ResumeFromACheckpointReachesTheUninterruptedResult) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_constrained_checkpoint";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const cec2006_g06 g06;
  const constrained_objective p(g06, handled_by(constraint_handling::epsilon));
  for (const auto crossover : {crossover_method::de, crossover_method::sbx}) {
    SCOPED_TRACE(name_of(crossover));
    const auto ga = constrained_ga(constraint_handling::epsilon, crossover);
    // The same limits in both runs: the epsilon level falls with the run's progress.
    termination limits = evaluations(60000);  // 200 generations; eps > 0 until 40
    limits.stall_generations = 1000;          // stall state on (violation, value) survives too
    limits.interrupt = &io::interrupt_flag();
    io::clear_interrupt();
    island_model straight_model(ga, constrained_islands(3, topology::random, 2));
    const auto straight = straight_model.run(p, search_box::of(p), limits);
    EXPECT_EQ(straight.reason, stop_reason::evaluations);

    for (const long long every : {0LL, 10LL}) {
      run_settings s;
      s.checkpoint_file = dir / "state.txt";
      s.checkpoint_every = every;
      // Interrupted early, while the epsilon level is still positive (until = 0.2 of the run).
      s.on_sync = [](const sync_report& r) {
        if (r.generation == 10) io::request_interrupt();
      };
      island_model m(ga, constrained_islands(3, topology::random, 1));
      const auto cut = m.run(p, search_box::of(p), limits, s);
      io::clear_interrupt();
      EXPECT_EQ(cut.reason, stop_reason::interrupted);
      EXPECT_EQ(cut.generations, 20);  // seen at the next synchronisation point
      // Without periodic checkpoints the caller saves the state after the interrupt.
      if (every == 0) m.save_checkpoint(s.checkpoint_file);
      {
        // The islands' epsilon levels (eps0, eps) are in the checkpoint.
        std::stringstream text;
        text << std::ifstream(s.checkpoint_file).rdbuf();
        EXPECT_NE(text.str().find("\nepsilon "), std::string::npos);
      }
      island_model again(ga, constrained_islands(3, topology::random, 2));
      const auto resumed = again.resume(p, search_box::of(p), s.checkpoint_file, limits);
      expect_same_with_violation(straight, resumed);
    }
  }
  std::filesystem::remove_all(dir);
}

// A checkpoint of a run that compared violations does not load into a problem that reports none
// (the same name and options, the constraints now in a penalty), nor the reverse.
TEST(ConstrainedIslandModel, ACheckpointOfOtherViolationReportingIsRefused) {
  const auto dir = std::filesystem::temp_directory_path() / "kinevo_ga_constrained_mismatch";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const cec2006_g06 g06;
  const constrained_objective with_violation(g06, handled_by(constraint_handling::epsilon));
  const constrained_objective with_penalty(g06, handled_by(constraint_handling::penalty));
  const auto ga = constrained_ga(constraint_handling::epsilon, crossover_method::de);
  const problem* pairs[2][2] = {{&with_violation, &with_penalty}, {&with_penalty, &with_violation}};
  for (const auto& [saved, loaded] : pairs) {
    island_model m(ga, constrained_islands(2, topology::ring, 1));
    run_settings s;
    s.checkpoint_file = dir / "state.txt";
    s.checkpoint_every = 10;
    m.run(*saved, search_box::of(*saved), generations(10), s);
    island_model again(ga, constrained_islands(2, topology::ring, 1));
    EXPECT_THROW(again.resume(*loaded, s.checkpoint_file, generations(20)), io::input_error)
        << (saved == &with_violation ? "violations into a penalty" : "penalty into violations");
  }
  std::filesystem::remove_all(dir);
}

// Range runs on a constrained problem: interrupted in run 2 and resumed, they end as the
// uninterrupted sequence (best chosen by Deb's rules across runs, violations in the state).
TEST(ConstrainedIslandModel, RangeRunsResumeToTheUninterruptedResult) {
  const auto dir =
      std::filesystem::temp_directory_path() / "kinevo_ga_constrained_range_checkpoint";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const cec2006_g06 g06;
  for (const auto method : {constraint_handling::epsilon, constraint_handling::feasibility}) {
    const auto crossover =
        method == constraint_handling::epsilon ? crossover_method::de : crossover_method::sbx;
    SCOPED_TRACE(to_string(method));
    const constrained_objective p(g06, handled_by(method));
    const auto ga = constrained_ga(method, crossover);
    auto io_opts = constrained_islands(2, topology::ring, 2);
    io_opts.seed = 8;
    termination per_run;
    per_run.max_generations = 30;
    per_run.interrupt = &io::interrupt_flag();
    range_run_options ro;
    ro.runs = 4;
    ro.shrink = 0.5;
    ro.clip_lower = p.lower_bounds();
    ro.clip_upper = p.upper_bounds();
    io::clear_interrupt();
    island_model straight_model(ga, io_opts);
    const auto straight = run_range_runs(straight_model, p, search_box::of(p), per_run, ro);
    ASSERT_EQ(straight.runs.size(), 4u);
    EXPECT_EQ(straight.best_violation, 0.0);
    EXPECT_TRUE(p.feasible(straight.best_x));

    int run = 0;
    const range_run_hook track = [&](range_run_step& step) {
      run = step.next_run;
      return true;
    };
    run_settings s;
    s.checkpoint_file = dir / "state.txt";
    s.on_sync = [&](const sync_report& r) {
      if (run == 2 && r.generation == 10) io::request_interrupt();
    };
    island_model m(ga, io_opts);
    const auto cut = run_range_runs(m, p, search_box::of(p), per_run, ro, track, s);
    io::clear_interrupt();
    ASSERT_EQ(cut.runs.size(), 3u);
    EXPECT_EQ(cut.runs.back().result.reason, stop_reason::interrupted);

    island_model again(ga, io_opts);
    run_settings quiet;
    quiet.checkpoint_file = s.checkpoint_file;
    const auto resumed =
        resume_range_runs(again, p, search_box::of(p), per_run, ro, s.checkpoint_file, {}, quiet);
    ASSERT_EQ(resumed.runs.size(), straight.runs.size());
    EXPECT_EQ(resumed.best_value, straight.best_value);
    EXPECT_EQ(resumed.best_violation, straight.best_violation);
    EXPECT_EQ(resumed.best_x, straight.best_x);
    EXPECT_EQ(resumed.evaluations, straight.evaluations);
    for (std::size_t k = 0; k < straight.runs.size(); ++k) {
      EXPECT_EQ(resumed.runs[k].result.best_value, straight.runs[k].result.best_value) << k;
      EXPECT_EQ(resumed.runs[k].result.best_violation, straight.runs[k].result.best_violation) << k;
      EXPECT_EQ(resumed.runs[k].centre, straight.runs[k].centre) << k;
      EXPECT_EQ(resumed.runs[k].radii, straight.runs[k].radii) << k;
    }
  }
  std::filesystem::remove_all(dir);
}

// A problem with integer genes 0 and 2 (bounds not integers: -3.5..7.7 and 0.2..9) that records
// every point it is asked to evaluate. Minimum of sum (x_j - 2.3)^2 over the integers: x_j = 2
// there, 2.3 elsewhere; plus a constraint x_0 + x_2 >= 5 for the constrained variant (then
// x_0 + x_2 = 5 with both in {2, 3}).
class integer_problem : public constrained_problem {
 public:
  explicit integer_problem(bool constrained) : constrained_(constrained) {}
  int dimension() const override { return 4; }
  Eigen::VectorXd lower_bounds() const override { return Eigen::Vector4d(-3.5, -5.0, 0.2, -5.0); }
  Eigen::VectorXd upper_bounds() const override { return Eigen::Vector4d(7.7, 5.0, 9.0, 5.0); }
  std::string name() const override { return "integer_problem"; }
  std::vector<int> integer_variables() const override { return {0, 2}; }
  int constraint_count() const override { return constrained_ ? 1 : 0; }
  bool is_equality(int) const override { return false; }
  std::string constraint_name(int) const override { return "sum"; }
  void evaluate(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> values,
                Eigen::Ref<Eigen::MatrixXd> c) const override {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (Eigen::Index k = 0; k < x.cols(); ++k) seen_.push_back(x.col(k));
    }
    for (Eigen::Index k = 0; k < x.cols(); ++k) {
      values[k] = (x.col(k).array() - 2.3).square().sum();
      if (constrained_) c(0, k) = 5.0 - x(0, k) - x(2, k);
    }
  }
  std::vector<Eigen::VectorXd> seen() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return seen_;
  }
  void forget() { seen_.clear(); }

 private:
  bool constrained_;
  mutable std::mutex mutex_;
  mutable std::vector<Eigen::VectorXd> seen_;
};

TEST(ConstrainedIslandModel, IntegerGenesAreIntegersAtEveryEvaluation) {
  struct variant {
    const char* name;
    ga_options ga;
    bool constrained;
    long long generations = 60;
  };
  std::vector<variant> variants;
  variants.push_back({"sbx", ga_options{}, false});
  variants.push_back(
      {"de", constrained_ga(constraint_handling::penalty, crossover_method::de), false});
  variants.push_back({"gaucsd binary", gaucsd_options(), false});
  variants.push_back({"de feasibility",
                      constrained_ga(constraint_handling::feasibility, crossover_method::de),
                      true});
  variants.push_back(
      {"sbx epsilon", constrained_ga(constraint_handling::epsilon, crossover_method::sbx), true});
  // G3-PCX rounds its children like any other: integer variables are meaningful with it. 3000
  // family steps (150 generations of 20 steps; 6000 evaluations per island).
  ga_options g3 = g3_pcx_options();
  g3.population = 40;
  g3.constraints = constraint_handling::feasibility;
  variants.push_back({"g3 pcx feasibility", g3, true, 3000 / g3.family_steps()});
  g3.constraints = constraint_handling::penalty;
  variants.push_back({"g3 pcx", g3, false, 3000 / g3.family_steps()});
  for (auto& v : variants) {
    SCOPED_TRACE(v.name);
    integer_problem ip(v.constrained);
    const constrained_objective p(
        ip, handled_by(v.constrained ? v.ga.constraints : constraint_handling::penalty));
    island_model m(v.ga, constrained_islands(3, topology::ring, 2));
    run_settings s;
    const Eigen::VectorXd start =
        Eigen::Vector4d(1.4, 0.0, 2.6, 0.0);  // a start point with fractions, too
    s.start_point = &start;
    const auto r = m.run(p, search_box::of(p), generations(v.generations), s);
    const auto seen = ip.seen();
    ASSERT_EQ(static_cast<long long>(seen.size()), r.evaluations);
    for (const auto& x : seen) {
      for (const int j : {0, 2}) {
        ASSERT_EQ(x[j], std::nearbyint(x[j])) << "gene " << j << " = " << x[j];
        ASSERT_GE(x[j], j == 0 ? -3.0 : 1.0);
        ASSERT_LE(x[j], j == 0 ? 7.0 : 9.0);
      }
      for (int j = 0; j < 4; ++j) {
        ASSERT_GE(x[j], p.lower_bounds()[j]);
        ASSERT_LE(x[j], p.upper_bounds()[j]);
      }
    }
    for (const int j : {0, 2}) EXPECT_EQ(r.best_x[j], std::nearbyint(r.best_x[j])) << j;
    if (v.ga.model == generation_model::g3) continue;  // its optimum: over seeds, below
    if (v.constrained) {
      EXPECT_EQ(r.best_violation, 0.0);
      EXPECT_EQ(r.best_x[0] + r.best_x[2], 5.0);
    } else {
      EXPECT_EQ(r.best_x[0], 2.0);
      EXPECT_EQ(r.best_x[2], 2.0);
    }
  }
  // G3-PCX's children spread with the population, which can close around the integer value its
  // rounded start point has (x_0 = 1): then no child rounds to another one. Over 200 seeds 147
  // to 151 runs reach x_0 = x_2 = 2 without the constraint and 172 to 180 reach x_0 + x_2 = 5
  // with it, for every normal sampler and generation length tried, so the optimum is asked of
  // most of 20 seeds rather than of one (whose outcome is a draw of that 3-in-4 chance).
  for (const auto& v : variants) {
    if (v.ga.model != generation_model::g3) continue;
    SCOPED_TRACE(v.name);
    int reached = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      integer_problem ip(v.constrained);
      const constrained_objective p(
          ip, handled_by(v.constrained ? v.ga.constraints : constraint_handling::penalty));
      island_options io = constrained_islands(3, topology::ring, 1);
      io.seed = seed;
      island_model m(v.ga, io);
      run_settings s;
      const Eigen::VectorXd start = Eigen::Vector4d(1.4, 0.0, 2.6, 0.0);
      s.start_point = &start;
      const auto r = m.run(p, search_box::of(p), generations(v.generations), s);
      reached += v.constrained ? r.best_violation == 0.0 && r.best_x[0] + r.best_x[2] == 5.0
                               : r.best_x[0] == 2.0 && r.best_x[2] == 2.0;
    }
    EXPECT_GE(reached, 10);
  }
}

// Range runs shrink the box around the best (bounds no longer integers) and, with rotate,
// search along rotated axes where a gene is not one variable: the points evaluated are still
// integral in the integer variables, and so is the best.
TEST(ConstrainedIslandModel, IntegerGenesStayIntegersInRangeRuns) {
  for (const bool rotate : {false, true}) {
    SCOPED_TRACE(rotate ? "rotated" : "axis-aligned");
    integer_problem ip(true);
    const constrained_objective p(ip, handled_by(constraint_handling::feasibility));
    island_model m(constrained_ga(constraint_handling::feasibility, crossover_method::de),
                   constrained_islands(2, topology::ring, 2));
    range_run_options ro;
    ro.runs = 4;
    ro.shrink = 0.3;
    ro.move_factor = 4.0;
    ro.rotate = rotate;
    ro.clip_lower = p.lower_bounds();
    ro.clip_upper = p.upper_bounds();
    const auto r = run_range_runs(m, p, search_box::of(p), generations(25), ro);
    const auto seen = ip.seen();
    ASSERT_FALSE(seen.empty());
    for (const auto& x : seen) {
      for (const int j : {0, 2}) ASSERT_EQ(x[j], std::nearbyint(x[j])) << j << ": " << x[j];
    }
    for (const int j : {0, 2}) EXPECT_EQ(r.best_x[j], std::nearbyint(r.best_x[j])) << j;
    EXPECT_EQ(r.best_violation, 0.0);
    EXPECT_EQ(r.best_x[0] + r.best_x[2], 5.0);
  }
}

// DE/rand/1/bin with one-to-one survivors: a population's best never gets worse, and it
// converges on unconstrained smooth problems.
TEST(ConstrainedIslandModel, DifferentialEvolutionNeverLosesItsBestAndConverges) {
  ga_options de;
  de.crossover = crossover_method::de;
  sphere_function sphere(10);
  rosenbrock_function rosenbrock(5);
  struct job {
    const problem* p;
    long long generations;
    double reached;
  };
  for (const auto& [p, g, reached] : {job{&sphere, 300, 1e-5}, job{&rosenbrock, 600, 1e-8}}) {
    SCOPED_TRACE(p->name());
    island_model m(de, constrained_islands(3, topology::ring, 2));
    run_settings s;
    s.record_history = true;
    const auto r = m.run(*p, search_box::of(*p), generations(g), s);
    EXPECT_LT(r.best_value, reached);
    ASSERT_EQ(r.history.size(), 3u * static_cast<std::size_t>(g + 1));
    for (std::size_t k = 1; k < r.history.size(); ++k) {
      if (r.history[k].island != r.history[k - 1].island) continue;
      EXPECT_LE(r.history[k].best, r.history[k - 1].best)
          << "island " << r.history[k].island << " generation " << r.history[k].generation;
    }
    // Every generation evaluates the whole population (a trial per individual).
    EXPECT_EQ(r.evaluations, 3LL * de.population * (g + 1));
  }
}

// Unconstrained runs are unchanged by the constraint-handling work: the hex-float results of
// commit caa85aa (before it) for the default GA, GAucsd and a SUS/BLX/Gaussian GA, and a
// range-run sequence. (Golden values of this machine's compiler and libm, as every bit-identity
// test here assumes.)
TEST(ConstrainedIslandModel, UnconstrainedResultsAreThoseBeforeConstraintHandling) {
  island_options io_opts = constrained_islands(4, topology::ring, 2);
  const auto check = [](const char* what, double value, const Eigen::VectorXd& x,
                        const std::vector<double>& golden_x, double golden_value) {
    SCOPED_TRACE(what);
    EXPECT_EQ(value, golden_value);
    ASSERT_EQ(static_cast<std::size_t>(x.size()), golden_x.size());
    for (std::size_t j = 0; j < golden_x.size(); ++j) {
      EXPECT_EQ(x[static_cast<Eigen::Index>(j)], golden_x[j]) << j;
    }
  };
  {
    rastrigin_function p(6);
    island_model m(ga_options{}, io_opts);
    const auto r = m.run(p, search_box::of(p), generations(60));
    EXPECT_EQ(r.evaluations, 24160);
    EXPECT_EQ(r.best_island, 3);
    EXPECT_EQ(r.best_violation, 0.0);
    check("rastrigin default", r.best_value, r.best_x,
          {0x1.cfa21ba06fd58p-9, -0x1.2177ae37b3a7p-7, -0x1.209e108bbb0dcp-10,
           -0x1.ec25e0547df64p-9, 0x1.d7246e55e59a2p-9, -0x1.3ef03143a1ee4p-9},
          0x1.9543d588af8p-6);
  }
  {
    rosenbrock_function p(5);
    auto o = io_opts;
    o.links = topology::random;
    island_model m(gaucsd_options(), o);
    const auto r = m.run(p, search_box::of(p), generations(60));
    EXPECT_EQ(r.best_island, 2);
    check("rosenbrock gaucsd", r.best_value, r.best_x,
          {0x1.75d575d575d6p-2, 0x1.644164416444p-4, 0x1.06810681068p-6, 0x1.9aa19aa19aa8p-5,
           -0x1.5ae15ae15aep-5},
          0x1.e3aaf481ccc26p+1);
  }
  {
    ackley_function p(5);
    ga_options g;
    g.selection = selection_method::sus;
    g.crossover = crossover_method::blx;
    g.mutation = mutation_method::gaussian;
    auto o = io_opts;
    o.links = topology::fully_connected;
    island_model m(g, o);
    const auto r = m.run(p, search_box::of(p), generations(60));
    EXPECT_EQ(r.best_island, 0);
    check("ackley sus blx gaussian", r.best_value, r.best_x,
          {0x1.4fd459eb8dcep-3, -0x1.c4d2c0c46db68p-2, 0x1.e050193407e9ap-3, 0x1.b40e664af9ccp-4,
           -0x1.f622909ac9c28p-4},
          0x1.350c0325a9d41p+1);
  }
  {
    sphere_function p(4);
    island_model m(ga_options{}, io_opts);
    range_run_options ro;
    ro.runs = 3;
    const auto r = run_range_runs(m, p, search_box::of(p), generations(20), ro);
    EXPECT_EQ(r.best_violation, 0.0);
    check("sphere range runs", r.best_value, r.best_x,
          {-0x1.c9f91dac9ac1p-13, 0x1.5d4a06b97fbfp-15, -0x1.da2c76550d667p-13,
           0x1.22ba85f2938f3p-12},
          0x1.7d013710d6aefp-23);
  }
}

}  // namespace
}  // namespace kinevo::ga
