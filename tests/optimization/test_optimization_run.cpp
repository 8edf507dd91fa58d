// The run driver and its self-reporting result: reports, the golden list of JSON keys, files'
// tables, the problem-file adapter's penalties, and the reproducers of issue 16 that belong here.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

#include "kinevo/ga/constrained_objective.hpp"
#include "kinevo/io/option_error.hpp"
#include "kinevo/optimization/detail/expression_objective.hpp"
#include "kinevo/optimization/run_driver.hpp"

namespace kinevo::optimization {
namespace {

optimize_options small_sphere() {
  optimize_options o;
  o.function = "sphere";
  o.dim = 3;
  o.limits.max_generations = 20;
  o.seed = 4;
  return o;
}

std::vector<std::string> keys_of(const nlohmann::json& j) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  return keys;  // nlohmann::json keeps object keys sorted
}

TEST(OptimizationRun, JsonKeysAreStable) {
  const optimization_run run = run_optimization(small_sphere());
  EXPECT_EQ(keys_of(run.to_json()),
            (std::vector<std::string>{"best_value", "best_x", "dim", "evaluations", "function",
                                      "generations", "islands", "seconds", "seed", "stop_reason"}));
  optimize_options o = small_sphere();
  o.range.runs = 3;
  o.given = {"range_runs"};
  const nlohmann::json j = run_optimization(o).to_json();
  EXPECT_EQ(keys_of(j), (std::vector<std::string>{"best_value", "best_x", "dim", "evaluations",
                                                  "function", "generations", "islands", "runs",
                                                  "seconds", "seed", "stop_reason"}));
  EXPECT_EQ(keys_of(j["runs"][0]),
            (std::vector<std::string>{"best_value", "best_x", "evaluations", "radii", "run"}));
  o = {};
  o.problem_file = std::string(KINEVO_EXAMPLES) + "/problem_constrained.toml";
  o.limits.max_generations = 5;
  EXPECT_EQ(
      keys_of(run_optimization(o).to_json()),
      (std::vector<std::string>{
          "best_value", "best_x", "constraint_values", "constraints", "dim", "equality_tolerance",
          "evaluations", "feasible", "function", "generations", "inequality_tolerance", "islands",
          "max_violation", "objective", "problem", "seconds", "seed", "stop_reason", "variables"}));
}

TEST(OptimizationRun, ReportsAndTables) {
  optimize_options o = small_sphere();
  o.record_history = true;
  const optimization_run run = run_optimization(o);
  EXPECT_EQ(run.generations, 20);
  EXPECT_EQ(run.result.evaluations, 100 + 20 * 99);
  EXPECT_NE(run.brief_report().find("stop: generations"), std::string::npos);
  EXPECT_NE(run.full_report().find("best value"), std::string::npos);
  EXPECT_NE(run.full_report().find(run.brief_report()), std::string::npos);
  EXPECT_TRUE(run.interruption_note().empty());
  // 21 records (generation 0 too) of the one island, a header line first.
  const std::string log = run.history_log().str();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 22);
  const auto series = run.best_per_generation();
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].y.size(), 21u);
  EXPECT_TRUE(std::is_sorted(series[0].y.rbegin(), series[0].y.rend()));  // elitist: never worse
  const std::string table = run.runs_table().str();
  EXPECT_NE(table.find("centre_2"), std::string::npos);
}

// issue 16.17: a single run kept a dim x dim identity as its "axes" (3.2 GB at dim 20,000).
TEST(OptimizationRun, SingleRunKeepsNoSquareMatrix) {
  optimize_options o = small_sphere();
  o.dim = 2000;
  o.limits.max_generations = 1;
  o.ga.population = 4;
  const optimization_run run = run_optimization(o);
  ASSERT_EQ(run.result.runs.size(), 1u);
  EXPECT_EQ(run.result.runs[0].axes.size(), 0);
}

// issue 16.5: -1e308..1e308 is a box whose width overflows to inf.
TEST(OptimizationRun, BoxWiderThanTheLargestDoubleIsRefused) {
  optimize_options o = small_sphere();
  o.lower = {-1e308};
  o.upper = {1e308};
  try {
    (void)run_optimization(o);
    FAIL() << "no error";
  } catch (const io::option_error& e) {
    EXPECT_EQ(e.field(), "upper");
    EXPECT_NE(std::string(e.what()).find("finite width"), std::string::npos) << e.what();
  }
}

// issue 16.13: an interrupted range run has no checkpoint and says what it kept instead.
TEST(OptimizationRun, InterruptedRangeRunsSayWhatWasKept) {
  optimize_options o = small_sphere();
  o.range.runs = 4;
  o.given = {"range_runs"};
  std::atomic<bool> stop{true};
  core::run_context context;
  context.interrupt = &stop;
  const optimization_run run = run_optimization(o, context);
  ASSERT_TRUE(run.interrupted());
  EXPECT_TRUE(run.checkpoint.empty());
  const std::string note = run.interruption_note();
  EXPECT_NE(note.find("range run 1 of 4"), std::string::npos) << note;
  EXPECT_NE(note.find("start it with --checkpoint FILE"), std::string::npos) << note;
  EXPECT_EQ(note.find("saved to"), std::string::npos) << note;
  EXPECT_EQ(run.outcome_note(), note);  // what the command prints after the report
}

// The note after the report: nothing for a plain run, the infeasibility as an error unless the
// user accepts infeasible answers (then a warning).
TEST(OptimizationRun, OutcomeNoteNamesAnInfeasibleAnswer) {
  optimization_run run = run_optimization(small_sphere());
  EXPECT_FALSE(run.outcome_note().has_value());
  run.expression = expression_report{};
  run.expression->feasible = false;
  ASSERT_TRUE(run.failed());
  EXPECT_EQ(run.outcome_note(), "error: " + run.infeasibility_warning());
  run.expression->allow_infeasible = true;
  EXPECT_EQ(run.outcome_note(), "warning: " + run.infeasibility_warning());
}

TEST(ExpressionObjective, PenaltiesOfTheExampleProblem) {
  const std::shared_ptr<const symbolic::expression_problem> file =
      symbolic::load_optimization_problem(std::string(KINEVO_EXAMPLES) +
                                          "/problem_constrained.toml");
  const expression_objective e(file);
  ga::constraint_options co;
  co.method = ga::constraint_handling::penalty;
  ga::constrained_objective p(e, co);
  p.set_weight_scales(e.weights());
  ASSERT_EQ(p.dimension(), 2);
  Eigen::MatrixXd pop(2, 2);
  pop.col(0) << (std::sqrt(7.0) - 1) / 2, (std::sqrt(7.0) + 1) / 4;  // feasible optimum
  pop.col(1) << 2.0, 1.0;  // violates both: h = 1 (weight 1e4), g = 1 (weight 1e5)
  Eigen::VectorXd values(2);
  p.evaluate(pop, values);
  EXPECT_NEAR(values[0], 1.393464980, 1e-8);
  EXPECT_NEAR(values[1], 0.0 + 1e4 * 1.0 + 1e5 * 1.0, 1e-9);
}

}  // namespace
}  // namespace kinevo::optimization
