#include "kinevo/optimization/detail/run_plan.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "kinevo/io/option_error.hpp"

namespace kinevo::optimization {

namespace {

// GAucsd (generalized-inverse dissertation (GIGSP), sec. 5.4) replaces the defaults of the
// fields it names; binary/Gray genes default to two-point crossover at 0.6 and bit mutation.
ga::ga_options genes_policy(const optimize_options& o) {
  ga::ga_options g = o.ga;
  const auto keep = [&](const char* key) { return o.is_given(key); };
  if (o.gaucsd) {
    const ga::ga_options u = ga::gaucsd_options();
    if (!keep("population")) g.population = u.population;
    if (!keep("encoding")) g.genes = u.genes;
    if (!keep("bits")) g.bits_per_variable = u.bits_per_variable;
    if (!keep("selection")) g.selection = u.selection;
    if (!keep("crossover")) g.crossover = u.crossover;
    if (!keep("crossover_rate")) g.crossover_rate = u.crossover_rate;
    if (!keep("mutation")) g.mutation = u.mutation;
    if (!keep("bit_mutation_rate")) g.bit_mutation_rate = u.bit_mutation_rate;
    if (!keep("elites")) g.elites = u.elites;
    return g;
  }
  const bool real = g.genes == ga::encoding::real;
  if (!keep("crossover"))
    g.crossover = real ? ga::crossover_method::sbx : ga::crossover_method::n_point;
  // The multi-parent crossovers run in the g3 model: asking for one asks for it.
  if (g.multi_parent() && !keep("generation_model")) g.model = ga::generation_model::g3;
  if (!keep("crossover_rate") && !real) g.crossover_rate = 0.6;
  if (!keep("mutation")) {
    g.mutation = real ? ga::mutation_method::polynomial : ga::mutation_method::bit_flip;
  }
  return g;
}

void refuse_gene_contradictions(const optimize_options& o, const ga::ga_options& g) {
  const bool real = g.genes == ga::encoding::real;
  if (real && o.is_given("bits")) {
    throw io::option_error("bits",
                           "applies to binary or gray genes; add --encoding binary or gray");
  }
  if (real && o.is_given("bit_mutation_rate")) {
    throw io::option_error("bit_mutation_rate",
                           "applies to binary or gray genes; use --gene-mutation-rate");
  }
  if (!real && o.is_given("gene_mutation_rate")) {
    throw io::option_error("gene_mutation_rate", "applies to real genes; use --bit-mutation-rate");
  }
}

// --preset tuned: population 30 and 80 rotated trust-region range runs, the first with 20 times
// the budget (docs/ga.md, "Quality"); generation and evaluation limits are totals over the runs.
void tuned_policy(const optimize_options& o, run_plan& p) {
  if (o.gaucsd || (o.is_given("encoding") && o.ga.genes != ga::encoding::real)) {
    throw io::option_error("preset", "tuned is real-coded; drop --gaucsd/--encoding");
  }
  const auto keep = [&](const char* key) { return o.is_given(key); };
  if (!keep("population")) p.ga.population = 30;
  if (!keep("range_runs")) p.range.runs = 80;
  if (!keep("shrink")) p.range.shrink = 0.5;
  if (!keep("move_factor")) p.range.move_factor = 4.0;
  if (!keep("first_run_budget")) p.range.first_run_budget = 20.0;
  if (!keep("rotate")) p.range.rotate = true;
  long long evals = o.limits.max_evaluations;
  if (!keep("max_evals") && !keep("generations")) evals = 100000;
  const double shares = p.range.runs - 1 + p.range.first_run_budget;
  const auto per_run = [&](long long total) {
    return total > 0 ? std::max(1LL, static_cast<long long>(static_cast<double>(total) / shares))
                     : total;
  };
  p.per_run.max_evaluations = per_run(evals);
  p.per_run.max_generations = keep("generations") ? per_run(o.limits.max_generations) : 0;
}

// --preset constrained (docs/constrained.md): DE trials with the GA's mutation at 0.02 per gene
// on 100 individuals, compared at the epsilon level; measured best on CEC 2006 g01-g24.
void constrained_policy(const optimize_options& o, run_plan& p) {
  if (o.gaucsd || (o.is_given("encoding") && o.ga.genes != ga::encoding::real)) {
    throw io::option_error("preset", "constrained is real-coded; drop --gaucsd/--encoding");
  }
  const auto keep = [&](const char* key) { return o.is_given(key); };
  if (!keep("population")) p.ga.population = 100;
  if (!keep("crossover")) p.ga.crossover = ga::crossover_method::de;
  if (!keep("gene_mutation_rate")) p.ga.gene_mutation_rate = 0.02;
}

// --preset g3-pcx: Deb et al.'s G3-PCX (ga::g3_pcx_options); the budget is in evaluations, as
// Deb et al. give theirs (1e5 unless given). --preset g3-pcx-metric: the same in a learned
// metric (ga::g3_pcx_metric_options).
void g3_pcx_policy(const optimize_options& o, run_plan& p, bool metric) {
  const std::string name = metric ? "g3-pcx-metric" : "g3-pcx";
  if (o.gaucsd || (o.is_given("encoding") && o.ga.genes != ga::encoding::real)) {
    throw io::option_error("preset", name + " is real-coded; drop --gaucsd/--encoding");
  }
  const auto keep = [&](const char* key) { return o.is_given(key); };
  const ga::ga_options d = metric ? ga::g3_pcx_metric_options() : ga::g3_pcx_options();
  if (!keep("population")) p.ga.population = d.population;
  if (!keep("generation_model")) p.ga.model = d.model;
  if (!keep("crossover")) p.ga.crossover = d.crossover;
  if (metric && !keep("metric")) p.ga.metric = d.metric;
  if (metric && !keep("pcx_sigma_eta")) p.ga.pcx_sigma_eta = d.pcx_sigma_eta;
  // The evaluation budget alone: the generation limit stays off unless given.
  if (!keep("generations")) p.per_run.max_generations = 0;
  if (!keep("max_evals") && !keep("generations")) p.per_run.max_evaluations = 100000;
}

// Constraint handling: the default returns a feasible point whenever a run found one (Deb's
// rules pick the best); multipliers update between runs, so without --range-runs they get
// default_multiplier_runs.
void constraints_policy(const optimize_options& o, const constraint_counts& c, run_plan& p) {
  if (!o.is_given("constraints")) p.ga.constraints = default_constraints(c);
  if (p.ga.constraints == ga::constraint_handling::multipliers && !o.is_given("range_runs") &&
      p.range.runs <= 1) {
    // The limits are totals, shared out over the runs (as the tuned preset does).
    p.range.runs = default_multiplier_runs;
    if (p.per_run.max_evaluations > 0) p.per_run.max_evaluations /= p.range.runs;
    if (p.per_run.max_generations > 0) {
      p.per_run.max_generations = std::max(1LL, p.per_run.max_generations / p.range.runs);
    }
  }
}

void refuse_run_contradictions(const optimize_options& o, const run_plan& p) {
  for (const char* key : {"shrink", "move_factor", "move_floor", "first_run_budget", "rotate"}) {
    if (o.is_given(key) && p.range.runs <= 1) {
      throw io::option_error(key, "needs --range-runs N (N >= 2)");
    }
  }
}

}  // namespace

ga::constraint_handling default_constraints(const constraint_counts& constraints) {
  return constraints.equalities > 0 ? ga::constraint_handling::epsilon
                                    : ga::constraint_handling::feasibility;
}

run_plan make_run_plan(const optimize_options& o) {
  return make_run_plan(o, constraint_counts{});
}

run_plan make_run_plan(const optimize_options& o, const constraint_counts& constraints) {
  run_plan p;
  p.ga = genes_policy(o);
  refuse_gene_contradictions(o, p.ga);
  p.islands = o.islands;
  p.islands.seed = o.seed;
  p.per_run = o.limits;
  // A budget the user gave is the budget: the default generation limit does not cut short an
  // evaluation or wall-time limit given without --generations (the stop reason then says
  // which limit ended the run).
  if (!o.is_given("generations") && (o.is_given("max_evals") || o.is_given("max_seconds"))) {
    p.per_run.max_generations = 0;
  }
  p.range = o.range;
  // The constrained preset is real-coded: asking for GAucsd or binary genes keeps the plain GA.
  const bool real = !o.gaucsd && !(o.is_given("encoding") && o.ga.genes != ga::encoding::real);
  const preset which =
      o.is_given("preset") || !constraints.any() || !real ? o.which : preset::constrained;
  if (which == preset::constrained) constrained_policy(o, p);
  constraints_policy(o, constraints, p);
  if (which == preset::tuned) tuned_policy(o, p);
  if (which == preset::g3_pcx || which == preset::g3_pcx_metric) {
    g3_pcx_policy(o, p, which == preset::g3_pcx_metric);
  }
  refuse_run_contradictions(o, p);
  return p;
}

}  // namespace kinevo::optimization
