// Issue 17: constrained problem files from `optimize`. With default settings (which pick the
// constrained preset for a file with constraints) the answer is feasible and at the best-known
// value on problems of different size and scale; an infeasible answer is flagged; each handling
// can be chosen; integer and discrete variables come back as integers and stock values.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "kinevo/optimization/detail/run_plan.hpp"
#include "kinevo/optimization/run_driver.hpp"

namespace kinevo::optimization {
namespace {

std::string example(const std::string& name) {
  return std::string(KINEVO_EXAMPLES) + "/" + name;
}

optimization_run run_file(const std::string& path, optimize_options o = {}) {
  o.problem_file = path;
  return run_optimization(o);
}

// A file written here: a problem none of the examples resembles.
std::string write_problem(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("kinevo_test_" + name + ".toml");
  std::ofstream(path) << text;
  return path.string();
}

double relative_error(double f, double best) {
  return std::abs(f - best) / std::max(1.0, std::abs(best));
}

struct known {
  const char* file;
  double f_star;
};

// Different sizes (2 to 13 variables), scales (f* from 0.75 to -30665) and kinds (inequalities,
// equalities, a tiny feasible region in g06), all with default settings and budget.
TEST(ConstrainedOptimize, DefaultsReturnFeasibleBestKnownAnswers) {
  const known cases[] = {{"cec2006/g01.toml", -15.0},
                         {"cec2006/g04.toml", -30665.5386717834},
                         {"cec2006/g06.toml", -6961.81387558015},
                         {"cec2006/g08.toml", -0.0958250414180359},
                         {"cec2006/g11.toml", 0.7499},
                         {"cec2006/g24.toml", -5.50801327159536}};
  for (const auto& c : cases) {
    const optimization_run run = run_file(example(c.file));
    ASSERT_TRUE(run.expression) << c.file;
    EXPECT_TRUE(run.expression->feasible) << c.file;
    EXPECT_FALSE(run.failed()) << c.file;
    EXPECT_LE(relative_error(run.expression->objective, c.f_star), 1e-4)
        << c.file << ": " << run.expression->objective;
  }
}

// The Bracken-McCormick example and a problem of another scale written here: minimise the
// perimeter x + y of a rectangle of area >= 1e4 (x* = y* = 100, f* = 200).
TEST(ConstrainedOptimize, DefaultsOnTheExampleAndOnAProblemOfAnotherScale) {
  const optimization_run bm = run_file(example("problem_constrained.toml"));
  EXPECT_TRUE(bm.expression->feasible);
  // With |h| <= 1e-4 allowed, the answer may use the tolerance: within O(1e-4) of f*.
  EXPECT_NEAR(bm.expression->objective, 1.3934650, 2e-4);
  const std::string rect = write_problem("rectangle", R"(
[problem]
name = "rectangle"
objective = "x + y"
[[variable]]
name = "x"
lower = 1
upper = 10000
[[variable]]
name = "y"
lower = 1
upper = 10000
[[constraint]]
name = "area"
type = "<="
expression = "1e4 - x*y"
)");
  const optimization_run r = run_file(rect);
  EXPECT_TRUE(r.expression->feasible);
  EXPECT_LE(relative_error(r.expression->objective, 200.0), 1e-4) << r.expression->objective;
  std::filesystem::remove(rect);
}

// The report of issue 17: g06 with the penalty ends infeasible below f*; every handling that
// compares feasibility returns a feasible point, and so does the tuned preset.
TEST(ConstrainedOptimize, FeasibilityFirstHandlingsNeverReturnThePenaltysInfeasiblePoint) {
  optimize_options o;
  o.ga.constraints = ga::constraint_handling::penalty;
  o.given = {"constraints"};
  o.allow_infeasible = true;
  const optimization_run penalised = run_file(example("cec2006/g06.toml"), o);
  EXPECT_FALSE(penalised.expression->feasible);
  EXPECT_LT(penalised.expression->objective, -6961.81387558015);
  EXPECT_FALSE(penalised.failed());  // accepted, but still reported infeasible
  for (const auto handling :
       {ga::constraint_handling::feasibility, ga::constraint_handling::epsilon}) {
    o.ga.constraints = handling;
    const optimization_run run = run_file(example("cec2006/g06.toml"), o);
    EXPECT_TRUE(run.expression->feasible) << ga::to_string(handling);
  }
  optimize_options tuned;
  tuned.which = preset::tuned;
  tuned.given = {"preset"};
  EXPECT_TRUE(run_file(example("cec2006/g06.toml"), tuned).expression->feasible);
}

TEST(ConstrainedOptimize, AnInfeasibleAnswerIsAFailureUnlessAccepted) {
  const std::string none = write_problem("infeasible", R"(
[problem]
name = "no feasible point"
objective = "x^2"
[[variable]]
name = "x"
lower = -10
upper = 10
[[constraint]]
name = "above_two"
type = "<="
expression = "2 - x"
[[constraint]]
name = "below_one"
type = "<="
expression = "x - 1"
)");
  optimize_options o;
  o.limits.max_generations = 50;
  const optimization_run run = run_file(none, o);
  EXPECT_FALSE(run.expression->feasible);
  EXPECT_TRUE(run.failed());
  EXPECT_NE(run.infeasibility_warning().find("--allow-infeasible"), std::string::npos);
  // The least total violation, 1, holds anywhere in [1, 2] (the largest single one is then
  // between 1/2 and 1).
  EXPECT_GE(run.result.best_x[0], 1.0 - 1e-9);
  EXPECT_LE(run.result.best_x[0], 2.0 + 1e-9);
  EXPECT_GE(run.expression->max_violation, 0.5 - 1e-9);
  EXPECT_LE(run.expression->max_violation, 1.0 + 1e-9);
  o.allow_infeasible = true;
  EXPECT_FALSE(run_file(none, o).failed());
  std::filesystem::remove(none);
}

// Multipliers: the augmented Lagrangian converges onto x* while the weights stay moderate, in
// the same total budget (shared over the default range runs).
TEST(ConstrainedOptimize, MultipliersReachTheConstrainedMinimiser) {
  optimize_options o;
  o.ga.constraints = ga::constraint_handling::multipliers;
  o.inequality_tolerance = 1e-9;  // the answer approaches from outside by rounding-level amounts
  o.given = {"constraints"};
  const optimization_run run = run_file(example("problem_constrained.toml"), o);
  EXPECT_EQ(run.range_runs, default_multiplier_runs);
  EXPECT_LE(run.result.evaluations, 101000);
  EXPECT_TRUE(run.expression->feasible);
  EXPECT_NEAR(run.result.best_x[0], (std::sqrt(7.0) - 1) / 2, 1e-6);
  EXPECT_NEAR(run.result.best_x[1], (std::sqrt(7.0) + 1) / 4, 1e-6);
}

TEST(ConstrainedOptimize, IntegerAndDiscreteVariablesComeBackAsValuesOfTheirKind) {
  const optimization_run gears = run_file(example("gear_train.toml"));
  for (Eigen::Index j = 0; j < 4; ++j) {
    EXPECT_EQ(gears.result.best_x[j], std::round(gears.result.best_x[j]));
    EXPECT_GE(gears.result.best_x[j], 12.0);
    EXPECT_LE(gears.result.best_x[j], 60.0);
  }
  EXPECT_LT(gears.expression->objective, 1e-9);  // best known 2.700857e-12
  const optimization_run beam = run_file(example("cantilever_stock.toml"));
  EXPECT_TRUE(beam.expression->feasible);
  EXPECT_EQ(beam.result.best_x[0], 8.0);  // the stock size, not its index
}

TEST(RunPlanConstraints, AConstrainedFileDefaultsToTheConstrainedPreset) {
  optimize_options o;
  const constraint_counts inequalities{2, 0};
  const constraint_counts with_equality{1, 1};
  run_plan p = make_run_plan(o, inequalities);
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::de);
  EXPECT_EQ(p.ga.population, 100);
  EXPECT_EQ(p.ga.gene_mutation_rate, 0.02);
  EXPECT_EQ(p.ga.constraints, ga::constraint_handling::feasibility);
  EXPECT_EQ(make_run_plan(o, with_equality).ga.constraints, ga::constraint_handling::epsilon);
  p = make_run_plan(o, constraint_counts{});
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::sbx);
  o.which = preset::plain;
  o.ga.population = 40;
  o.given = {"preset", "population"};
  p = make_run_plan(o, inequalities);
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::sbx);
  EXPECT_EQ(p.ga.population, 40);
  EXPECT_EQ(p.ga.constraints, ga::constraint_handling::feasibility);
  o.ga.constraints = ga::constraint_handling::penalty;
  o.given.insert("constraints");
  EXPECT_EQ(make_run_plan(o, with_equality).ga.constraints, ga::constraint_handling::penalty);
  optimize_options binary;
  binary.gaucsd = true;
  binary.given = {"gaucsd"};
  p = make_run_plan(binary, inequalities);  // GAucsd keeps its GA, with the default handling
  EXPECT_EQ(p.ga.genes, ga::encoding::binary);
  EXPECT_EQ(p.ga.constraints, ga::constraint_handling::feasibility);
}

TEST(RunPlanConstraints, MultipliersShareTheBudgetOverTheirRuns) {
  optimize_options o;
  o.ga.constraints = ga::constraint_handling::multipliers;
  o.limits.max_evaluations = 50000;
  o.given = {"constraints", "max_evals"};
  const run_plan p = make_run_plan(o, constraint_counts{1, 1});
  EXPECT_EQ(p.range.runs, default_multiplier_runs);
  EXPECT_EQ(p.per_run.max_evaluations, 50000 / default_multiplier_runs);
  o.range.runs = 3;
  o.given.insert("range_runs");
  EXPECT_EQ(make_run_plan(o, constraint_counts{1, 1}).range.runs, 3);
}

}  // namespace
}  // namespace kinevo::optimization

namespace kinevo::optimization {
namespace {

// Multipliers change the problem between range runs: a sequence interrupted in run 3 and
// resumed replays the updates of runs 1 and 2 and ends exactly where the uninterrupted one does.
TEST(ConstrainedOptimize, MultipliersResumeExactlyAfterAnInterrupt) {
  optimize_options o;
  o.problem_file = example("problem_constrained.toml");
  o.ga.constraints = ga::constraint_handling::multipliers;
  o.allow_infeasible = true;
  o.limits.max_generations = 200;
  o.given = {"constraints", "generations"};
  const optimization_run whole = run_optimization(o);

  const auto checkpoint =
      std::filesystem::temp_directory_path() / "kinevo_test_multipliers.checkpoint";
  o.checkpoint = checkpoint.string();
  std::atomic<bool> stop{false};
  core::run_context context;
  context.interrupt = &stop;
  context.on_progress = [&](const core::progress& p) {
    if (p.stage == 2 && p.step >= 20) stop = true;
  };
  const optimization_run first = run_optimization(o, context);
  ASSERT_TRUE(first.interrupted());
  o.resume = o.checkpoint;
  const optimization_run resumed = run_optimization(o);
  EXPECT_EQ(resumed.exact_report(), whole.exact_report());
  // Every run's penalised best, which depends on the multipliers of its run.
  ASSERT_EQ(resumed.result.runs.size(), whole.result.runs.size());
  for (std::size_t k = 2; k < whole.result.runs.size(); ++k) {
    EXPECT_EQ(resumed.result.runs[k].result.best_value, whole.result.runs[k].result.best_value)
        << "run " << k + 1;
  }
  std::filesystem::remove(checkpoint);
  std::filesystem::remove(ga::range_state_path(checkpoint));
}

}  // namespace
}  // namespace kinevo::optimization

namespace kinevo::optimization {
namespace {

// Deb's rules drive every selection (tournament, SUS on Deb's fitness, linear ranking) and the
// binary GAucsd genes too: each returns a feasible g06 answer.
TEST(ConstrainedOptimize, EverySelectionAndEncodingReturnsAFeasibleAnswer) {
  for (const auto selection :
       {ga::selection_method::tournament, ga::selection_method::sus, ga::selection_method::rank}) {
    optimize_options o;
    o.which = preset::plain;
    o.ga.selection = selection;
    o.given = {"preset", "selection"};
    const optimization_run run = run_file(example("cec2006/g06.toml"), o);
    EXPECT_TRUE(run.expression->feasible) << ga::to_string(selection);
    EXPECT_LE(relative_error(run.expression->objective, -6961.81387558015), 0.05)
        << ga::to_string(selection);
  }
  optimize_options binary;
  binary.gaucsd = true;
  binary.given = {"gaucsd"};
  EXPECT_TRUE(run_file(example("cec2006/g06.toml"), binary).expression->feasible);
}

}  // namespace
}  // namespace kinevo::optimization
