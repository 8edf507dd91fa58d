#include "kinevo/cli/optimize_cli_options.hpp"

#include "kinevo/cli/command.hpp"
#include "kinevo/cli/optimize_sanlsu.hpp"

namespace kinevo::cli {

namespace {

void add_problem_options(CLI::App& sub, optimization::optimize_options& o) {
  sub.add_option("--function", o.function,
                 "sphere, rosenbrock, rastrigin, ackley, griewank, schwefel, quadratic; "
                 "ellipsoid (sum i x_i^2), double_sum (Schwefel's sum_i (sum_{j<=i} x_j)^2), "
                 "rotated_ellipsoid (condition 1e6, fixed rotation), rotated_rastrigin. "
                 "Minimum 0 at x = 0, except rosenbrock (1, ..., 1) and schwefel "
                 "(420.9687, ...)")
      ->capture_default_str();
  sub.add_option("--problem", o.problem_file,
                 "TOML problem file: variables with bounds, objective, g <= 0 / h = 0 "
                 "constraints (docs/model-files.md)")
      ->check(CLI::ExistingFile);
  sub.add_option("--dim", o.dim, "Number of variables")->capture_default_str();
  sub.add_option("--lower", o.lower, "Lower bound(s): one value or one per variable");
  sub.add_option("--upper", o.upper, "Upper bound(s): one value or one per variable");
  add_seed_option(sub, "--seed", o.seed, "Master seed");
  add_enum_option(sub, "--preset", o.which, optimization::parse_preset,
                  "plain (one GA run), tuned (rotated trust-region range runs; "
                  "--max-evals/--generations are then totals, default 1e5 evaluations), "
                  "constrained (de, epsilon level), g3-pcx (Deb et al.'s G3-PCX: rotation "
                  "invariant, for smooth non-separable problems; default 1e5 evaluations) or "
                  "g3-pcx-metric (G3-PCX in a metric it learns: for ill-conditioned valleys; "
                  "default 1e5 evaluations)")
      ->default_str(optimization::to_string(o.which));
}

void add_ga_options(CLI::App& sub, optimization::optimize_options& o) {
  ga::ga_options& g = o.ga;
  sub.add_option("--population", g.population, "Individuals per island")->capture_default_str();
  add_enum_option(sub, "--encoding", g.genes, ga::parse_encoding, "real, binary or gray")
      ->default_str(ga::to_string(g.genes));
  sub.add_option("--bits", g.bits_per_variable, "Bits per variable (binary/gray)")
      ->capture_default_str();
  add_enum_option(sub, "--selection", g.selection, ga::parse_selection, "sus, tournament or rank")
      ->default_str(ga::to_string(g.selection));
  sub.add_option("--tournament-size", g.tournament_size,
                 "Tournament: best of this many (1: random)")
      ->capture_default_str();
  sub.add_option("--rank-pressure", g.rank_pressure, "Linear ranking pressure in [1, 2]")
      ->capture_default_str();
  add_enum_option(sub, "--crossover", g.crossover, ga::parse_crossover,
                  "n_point, uniform, sbx, blx, de (differential evolution DE/rand/1/bin with "
                  "one-to-one survivors; default: sbx for real, n_point for binary/gray), "
                  "or the multi-parent pcx, undx, spx (rotation invariant; g3 or mgg model)");
  add_enum_option(sub, "--generation-model", g.model, ga::parse_generation_model,
                  "generational, or g3 (Deb et al.'s generalized generation gap: best + random "
                  "parents, --offspring children, replace --replaced random members by the "
                  "best of them and the children; default with pcx, undx, spx), or mgg "
                  "(Satoh et al.'s minimal generation gap, UNDX's model: random parents, "
                  "--offspring children, the family's best and a rank-roulette draw replace "
                  "the first two parents). A g3/mgg generation is ceil(population / offspring) "
                  "such family steps, about population evaluations as in the generational model")
      ->default_str(ga::to_string(g.model));
  sub.add_option("--parents", g.parents, "g3/mgg: parents per family step (mu; spx: n+1 advised)")
      ->capture_default_str();
  sub.add_option("--offspring", g.offspring, "g3/mgg: children per family step (lambda)")
      ->capture_default_str();
  sub.add_option("--replaced", g.replaced,
                 "g3: members replaced per family step (r; mgg: always 2)")
      ->capture_default_str();
  sub.add_option("--pcx-sigma-zeta", g.pcx_sigma_zeta, "pcx: spread along the index parent's line")
      ->capture_default_str();
  sub.add_option("--pcx-sigma-eta", g.pcx_sigma_eta, "pcx: spread across it")
      ->capture_default_str();
  add_enum_option(sub, "--metric", g.metric, ga::parse_metric_model,
                  "pcx with g3: isotropic (Deb et al.'s noise across d) or learned (pcx in a "
                  "metric the island learns from the ranks of its children, rank-mu update; "
                  "for ill-conditioned valleys in any orientation)")
      ->default_str(ga::to_string(g.metric));
  sub.add_option("--metric-interval", g.metric_interval,
                 "learned metric: children ranked per update (0: 4 + floor(3 ln n))")
      ->capture_default_str();
  sub.add_option("--metric-rate", g.metric_rate,
                 "learned metric: weight of an update in [0, 1] (0: the rank-mu rate)")
      ->capture_default_str();
  sub.add_flag("--metric-carry", g.metric_carry,
               "learned metric: keep each island's metric from one range run to the next");
  sub.add_option("--metric-lazy", g.metric_lazy,
                 "learned metric: decompose it this many times less often than CMA-ES's rule")
      ->capture_default_str();
  add_enum_option(sub, "--metric-root", g.metric_root_kind, ga::parse_metric_root,
                  "learned metric: the root of C that maps the children, cholesky (its "
                  "triangular factor) or symmetric (C^1/2 by eigen-decomposition: the same "
                  "distribution, more flops; the earlier default's bits)")
      ->default_str(ga::to_string(g.metric_root_kind));
  sub.add_option("--undx-sigma-xi", g.undx_sigma_xi,
                 "undx: spread along the primary parents (<= 0: 1/sqrt(parents - 1))")
      ->capture_default_str();
  sub.add_option("--undx-sigma-eta", g.undx_sigma_eta,
                 "undx: spread across them (<= 0: 0.35/sqrt(n - parents + 1))")
      ->capture_default_str();
  sub.add_option("--spx-epsilon", g.spx_epsilon,
                 "spx: expansion of the parents' simplex (<= 0: sqrt(parents + 1))")
      ->capture_default_str();
  sub.add_option("--crossover-rate", g.crossover_rate, "Probability a pair is crossed")
      ->capture_default_str();
  sub.add_option("--crossover-points", g.crossover_points, "n of n-point crossover")
      ->capture_default_str();
  sub.add_option("--uniform-swap", g.uniform_swap, "Uniform crossover: per-gene swap probability")
      ->capture_default_str();
  sub.add_option("--sbx-eta", g.sbx_eta, "SBX index (larger: children nearer the parents)")
      ->capture_default_str();
  sub.add_option("--blx-alpha", g.blx_alpha, "BLX-alpha extension of the parents' interval")
      ->capture_default_str();
  sub.add_option("--de-weight", g.de_weight, "F of de crossover, in (0, 2]")->capture_default_str();
  add_enum_option(sub, "--mutation", g.mutation, ga::parse_mutation,
                  "bit_flip, polynomial, gaussian (default: polynomial for real, bit_flip "
                  "for binary/gray)");
  sub.add_option("--bit-mutation-rate", g.bit_mutation_rate, "Per-bit rate of bit_flip")
      ->capture_default_str();
  sub.add_option("--gene-mutation-rate", g.gene_mutation_rate,
                 "Per-gene rate for real genes (negative: 1/dim)")
      ->capture_default_str();
  sub.add_option("--polynomial-eta", g.polynomial_eta, "Polynomial mutation distribution index")
      ->capture_default_str();
  sub.add_option("--gaussian-sigma", g.gaussian_sigma, "Fraction of the box width")
      ->capture_default_str();
  sub.add_option("--elites", g.elites, "Best individuals kept unchanged each generation")
      ->capture_default_str();
  sub.add_flag("--gaucsd", o.gaucsd,
               "GAucsd settings of the generalized-inverse dissertation: 16-bit binary, "
               "SUS, two-point crossover 0.6, bit mutation 0.001");
}

void add_constraint_options(CLI::App& sub, optimization::optimize_options& o) {
  add_enum_option(sub, "--constraints", o.ga.constraints, ga::parse_constraint_handling,
                  "How a problem file's constraints are handled: penalty (the file's weights), "
                  "multipliers (augmented Lagrangian between range runs), feasibility (Deb's "
                  "rules; default without equalities) or epsilon (epsilon-level comparison; "
                  "default with equalities)")
      ->default_str("feasibility or epsilon");
  sub.add_option("--equality-tolerance", o.equality_tolerance,
                 "|h| within this counts as satisfying an equality (CEC 2006: 1e-4)")
      ->capture_default_str();
  sub.add_option("--inequality-tolerance", o.inequality_tolerance,
                 "g within this above 0 counts as satisfying an inequality (CEC 2006: 0)")
      ->capture_default_str();
  sub.add_flag("--allow-infeasible", o.allow_infeasible,
               "An infeasible answer is a warning with exit 0 instead of a failure (exit 1)");
  ga::epsilon_options& e = o.ga.epsilon;
  sub.add_option("--epsilon-quantile", e.quantile,
                 "epsilon: initial level = violation at this quantile of the first population")
      ->capture_default_str();
  sub.add_option("--epsilon-exponent", e.exponent, "epsilon: cp in eps0 (1 - t/Tc)^cp")
      ->capture_default_str();
  sub.add_option("--epsilon-until", e.until,
                 "epsilon: Tc as a fraction of each run's generation or evaluation limit")
      ->capture_default_str();
}

void add_island_options(CLI::App& sub, ga::island_options& i) {
  sub.add_option("--islands", i.islands, "Islands (threads, or spread over MPI ranks)")
      ->capture_default_str();
  add_enum_option(sub, "--topology", i.links, ga::parse_topology,
                  "ring, fully_connected, random, unconnected")
      ->default_str(ga::to_string(i.links));
  sub.add_option("--migration-interval", i.migration_interval,
                 "Generations between migrations (a generation: about population evaluations "
                 "per island, also with g3)")
      ->capture_default_str();
  sub.add_option("--migrants", i.migrants, "Individuals each island sends per migration")
      ->capture_default_str();
  add_enum_option(sub, "--transport", i.via, ga::parse_transport, "automatic, threads or mpi")
      ->default_str(ga::to_string(i.via));
  sub.add_option("--threads", i.threads, "Threads per process (0: automatic)")
      ->capture_default_str();
}

void add_termination_options(CLI::App& sub, ga::termination& t) {
  sub.add_option("--generations", t.max_generations,
                 "Generation limit (0: none); the default applies only when neither "
                 "--max-evals nor --max-seconds is given")
      ->capture_default_str();
  sub.add_option("--max-evals", t.max_evaluations, "Evaluation limit over all islands (0: none)")
      ->capture_default_str();
  sub.add_option("--target", t.target_value, "Stop when the best value is <= this");
  sub.add_option("--stall-generations", t.stall_generations,
                 "Stop after this many generations without improvement (0: off)")
      ->capture_default_str();
  sub.add_option("--stall-tolerance", t.stall_tolerance,
                 "Improvement smaller than this counts as a stall")
      ->capture_default_str();
  sub.add_option("--max-seconds", t.max_seconds, "Wall-time limit (0: none)")
      ->capture_default_str();
}

void add_range_options(CLI::App& sub, optimization::range_settings& r) {
  sub.add_option("--range-runs", r.runs, "Successive runs re-centred on the best and shrunk")
      ->capture_default_str();
  sub.add_option("--shrink", r.shrink, "Radius factor between range runs")->capture_default_str();
  sub.add_option("--move-factor", r.move_factor,
                 "Range runs: next radii = factor x move of the best (trust region; 0: off)")
      ->capture_default_str();
  sub.add_option("--move-floor", r.move_floor,
                 "Range runs: smallest radius as a fraction of the largest")
      ->capture_default_str();
  sub.add_option("--first-run-budget", r.first_run_budget,
                 "Range runs: limits of the first (global) run as a multiple of the others")
      ->capture_default_str();
  sub.add_flag("--rotate", r.rotate,
               "Range runs: align the boxes with the recent moves of the best (needs "
               "--move-factor)");
}

void add_output_options(CLI::App& sub, optimize_cli& c) {
  sub.add_option("--log", c.files.log, "CSV log per generation and island");
  sub.add_option("--plot", c.files.plot, "SVG chart of the best value per generation");
  sub.add_option("--table", c.files.table, "CSV table of every (range) run's best");
  sub.add_option("--checkpoint", c.options.checkpoint, "Checkpoint file (whole state)");
  sub.add_option("--checkpoint-every", c.options.checkpoint_every,
                 "Generations between checkpoints");
  sub.add_option("--resume", c.options.resume, "Continue from a checkpoint file");
  sub.add_flag("--json", c.json, "Print one JSON object on stdout");
  sub.add_flag("-q,--quiet", c.quiet, "No progress line, no text output");
  sub.add_option("--cost-us", c.options.cost_us,
                 "Busy-wait this many microseconds per evaluation (benchmarking: docs/ga.md)");
  sub.add_flag("--print-hex", c.print_hex, "Print the best point in hex floats (tests)")->group("");
}

// Puts the options `add` adds into the --help section `group` (hidden options stay hidden).
template <class Add>
void in_group(CLI::App& sub, const std::string& group, Add add) {
  const std::size_t before = sub.get_options().size();
  add();
  const auto options = sub.get_options([](CLI::Option*) { return true; });
  for (std::size_t k = before; k < options.size(); ++k) {
    if (!options[k]->get_group().empty()) options[k]->group(group);
  }
}

}  // namespace

void add_optimize_options(CLI::App& sub, optimize_cli& c) {
  sub.add_option("--config", c.config,
                 "Read options from a TOML file (keys are the long option names)");
  // About 70 options: --help lists them in sections.
  in_group(sub, "Problem", [&] { add_problem_options(sub, c.options); });
  in_group(sub, "Genetic algorithm", [&] { add_ga_options(sub, c.options); });
  in_group(sub, "Constraints (problem files)", [&] { add_constraint_options(sub, c.options); });
  in_group(sub, "Islands and parallelism", [&] { add_island_options(sub, c.options.islands); });
  in_group(sub, "Termination (the first limit met ends the run)",
           [&] { add_termination_options(sub, c.options.limits); });
  in_group(sub, "Range runs", [&] { add_range_options(sub, c.options.range); });
  in_group(sub, "Output", [&] { add_output_options(sub, c); });
  in_group(sub, "SANLSU gradient projection (--method sanlsu, --refine sanlsu)",
           [&] { add_sanlsu_options(sub, c.options); });
}

}  // namespace kinevo::cli
