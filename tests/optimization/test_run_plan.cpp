// The policies between the options and the GA: GAucsd, binary defaults, the tuned preset and
// its budget split, contradictions; and the memory estimate that refuses huge runs up front.
#include <gtest/gtest.h>

#include "kinevo/io/option_error.hpp"
#include "kinevo/optimization/detail/memory_estimate.hpp"
#include "kinevo/optimization/detail/run_plan.hpp"

namespace kinevo::optimization {
namespace {

std::string plan_error_field(const optimize_options& o) {
  try {
    (void)make_run_plan(o);
  } catch (const io::option_error& e) {
    return e.field();
  }
  return "(valid)";
}

TEST(RunPlan, BinaryGenesDefaultToTwoPointCrossoverAndBitMutation) {
  optimize_options o;
  o.ga.genes = ga::encoding::binary;
  o.given = {"encoding"};
  const run_plan p = make_run_plan(o);
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::n_point);
  EXPECT_EQ(p.ga.mutation, ga::mutation_method::bit_flip);
  EXPECT_EQ(p.ga.crossover_rate, 0.6);
}

TEST(RunPlan, GaucsdKeepsOnlyTheGivenFields) {
  optimize_options o;
  o.gaucsd = true;
  o.ga.population = 40;
  o.given = {"gaucsd", "population"};
  const run_plan p = make_run_plan(o);
  EXPECT_EQ(p.ga.population, 40);
  EXPECT_EQ(p.ga.genes, ga::encoding::binary);
  EXPECT_EQ(p.ga.selection, ga::selection_method::sus);
}

// A budget the user gave is the budget: the default --generations 1000 does not cap
// --max-evals or --max-seconds; a --generations given with them still does.
TEST(RunPlan, GivenEvaluationOrTimeBudgetIsNotCappedByTheDefaultGenerations) {
  optimize_options o;
  o.limits.max_evaluations = 5000000;
  o.given = {"max_evals"};
  EXPECT_EQ(make_run_plan(o).per_run.max_generations, 0);
  EXPECT_EQ(make_run_plan(o).per_run.max_evaluations, 5000000);
  o.given = {"max_evals", "generations"};
  EXPECT_EQ(make_run_plan(o).per_run.max_generations, 1000);
  optimize_options t;
  t.limits.max_seconds = 30.0;
  t.given = {"max_seconds"};
  EXPECT_EQ(make_run_plan(t).per_run.max_generations, 0);
  // Without a budget of the user's the default generation limit applies.
  EXPECT_EQ(make_run_plan(optimize_options{}).per_run.max_generations, 1000);
}

TEST(RunPlan, TunedPresetSharesTheTotalBudgetOverTheRuns) {
  optimize_options o;
  o.which = preset::tuned;
  const run_plan p = make_run_plan(o);
  EXPECT_EQ(p.ga.population, 30);
  EXPECT_EQ(p.range.runs, 80);
  EXPECT_TRUE(p.range.rotate);
  // 1e5 evaluations over 79 + 20 shares.
  EXPECT_EQ(p.per_run.max_evaluations, 1010);
  EXPECT_EQ(p.per_run.max_generations, 0);
}

// --preset g3-pcx is Deb et al.'s G3-PCX with a budget in evaluations (1e5 unless given);
// asking for a multi-parent crossover asks for the g3 model.
TEST(RunPlan, G3PcxPresetIsDebsG3PcxWithAnEvaluationBudget) {
  optimize_options o;
  o.which = preset::g3_pcx;
  o.given = {"preset"};
  run_plan p = make_run_plan(o);
  EXPECT_EQ(p.ga.model, ga::generation_model::g3);
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::pcx);
  EXPECT_EQ(p.ga.population, 100);
  EXPECT_EQ(p.ga.parents, 3);
  EXPECT_EQ(p.ga.offspring, 2);
  EXPECT_EQ(p.ga.replaced, 2);
  EXPECT_EQ(p.per_run.max_evaluations, 100000);
  EXPECT_EQ(p.per_run.max_generations, 0);
  EXPECT_NO_THROW(p.ga.validate());
  o.limits.max_evaluations = 5000;
  o.given = {"preset", "max_evals"};
  p = make_run_plan(o);
  EXPECT_EQ(p.per_run.max_evaluations, 5000);
  EXPECT_EQ(p.per_run.max_generations, 0);  // not the generational default of 1000
  o.ga.crossover = ga::crossover_method::undx;
  o.given = {"preset", "crossover"};
  EXPECT_EQ(make_run_plan(o).ga.crossover, ga::crossover_method::undx);
  o = {};
  o.ga.crossover = ga::crossover_method::spx;
  o.given = {"crossover"};
  EXPECT_EQ(make_run_plan(o).ga.model, ga::generation_model::g3);
  o.ga.model = ga::generation_model::generational;
  o.given = {"crossover", "generation_model"};
  EXPECT_THROW(make_run_plan(o).ga.validate(), io::option_error);
  o = {};
  o.which = preset::g3_pcx;
  o.gaucsd = true;
  EXPECT_EQ(plan_error_field(o), "preset");
}

// --preset g3-pcx-metric is G3-PCX in a learned metric with sigma_eta 0.14, unless given.
TEST(RunPlan, G3PcxMetricPresetLearnsItsMetric) {
  optimize_options o;
  o.which = preset::g3_pcx_metric;
  o.given = {"preset"};
  run_plan p = make_run_plan(o);
  EXPECT_EQ(p.ga.model, ga::generation_model::g3);
  EXPECT_EQ(p.ga.crossover, ga::crossover_method::pcx);
  EXPECT_EQ(p.ga.metric, ga::metric_model::learned);
  EXPECT_EQ(p.ga.pcx_sigma_eta, 0.14);
  EXPECT_EQ(p.per_run.max_evaluations, 100000);
  EXPECT_NO_THROW(p.ga.validate());
  o.ga.pcx_sigma_eta = 0.1;
  o.ga.metric = ga::metric_model::isotropic;
  o.given = {"preset", "pcx_sigma_eta", "metric"};
  p = make_run_plan(o);
  EXPECT_EQ(p.ga.pcx_sigma_eta, 0.1);
  EXPECT_EQ(p.ga.metric, ga::metric_model::isotropic);
  o = {};
  o.which = preset::g3_pcx_metric;
  o.gaucsd = true;
  EXPECT_EQ(plan_error_field(o), "preset");
}

TEST(RunPlan, ContradictionsNameTheOption) {
  optimize_options o;
  o.given = {"bits"};
  EXPECT_EQ(plan_error_field(o), "bits");
  o = {};
  o.given = {"shrink"};
  EXPECT_EQ(plan_error_field(o), "shrink");
  // Range runs take --checkpoint and --resume (ga::resume_range_runs): no contradiction.
  o = {};
  o.resume = "x";
  o.range.runs = 3;
  EXPECT_NO_THROW((void)make_run_plan(o));
  o = {};
  o.checkpoint = "x";
  o.which = preset::tuned;
  EXPECT_NO_THROW((void)make_run_plan(o));
  o = {};
  o.which = preset::tuned;
  o.gaucsd = true;
  EXPECT_EQ(plan_error_field(o), "preset");
}

std::string memory_error(const optimize_options& o, int dim, double limit) {
  const run_plan p = make_run_plan(o);
  try {
    check_memory(estimate_memory(p, dim, o.record_history), p, dim, limit);
  } catch (const io::option_error& e) {
    return e.field();
  }
  return "(fits)";
}

TEST(MemoryEstimate, HugeSizesAreRefusedNamingTheOption) {
  const double limit = 8e9;
  optimize_options o;
  EXPECT_EQ(memory_error(o, 10, limit), "(fits)");
  o.ga.population = 1'000'000'000;
  EXPECT_EQ(memory_error(o, 10, limit), "population");
  o = {};
  o.islands.islands = 1'000'000;
  EXPECT_EQ(memory_error(o, 10, limit), "islands");
  o = {};
  o.record_history = true;
  o.limits.max_generations = 10'000'000'000;
  EXPECT_EQ(memory_error(o, 10, limit), "generations");
  o = {};
  o.which = preset::tuned;
  EXPECT_EQ(memory_error(o, 100'000, limit), "dim");  // 82 rotated axes of 1e5 x 1e5
  EXPECT_GT(memory_limit_bytes(), 0.0);
}

TEST(MemoryEstimate, PlainRunsAreLinearInTheDimension) {
  optimize_options o;
  const run_plan p = make_run_plan(o);
  const double small = estimate_memory(p, 1000, false).total();
  const double large = estimate_memory(p, 10000, false).total();
  EXPECT_LT(large, 10.5 * small);
}

}  // namespace
}  // namespace kinevo::optimization
