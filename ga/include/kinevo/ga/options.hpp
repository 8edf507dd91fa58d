// Settings of one island's generational GA (Ceres-style: a plain struct with documented
// defaults; `validate` says what to change). The defaults are kinevo's tuned real-coded GA;
// `gaucsd_options` gives the binary GA of the generalized-inverse dissertation (GIGSP), ch. 5.
#pragma once

#include <algorithm>
#include <string>

#include "kinevo/ga/constraint_handling.hpp"

namespace kinevo::ga {

// How a candidate is stored. Binary and Gray genomes hold `bits_per_variable` bits per
// variable, decoded onto [lo, hi] as GAucsd does: x = lo + (hi - lo) k / (2^b - 1).
enum class encoding { real, binary, gray };

// sus: proportional selection by stochastic universal sampling of window-scaled fitness
// (f_worst - f, so that it works for minimisation); tournament: best of `tournament_size`
// drawn with replacement; rank: linear ranking with `rank_pressure` expected copies of the best.
enum class selection_method { sus, tournament, rank };

// n_point and uniform work on every encoding (on bits for binary/Gray, on whole genes for real);
// sbx (simulated binary crossover) and blx (BLX-alpha) are for real genes only. de is
// differential evolution's DE/rand/1/bin (Storn and Price, "Differential evolution - a simple
// and efficient heuristic for global optimization over continuous spaces", J. Global Optim. 11
// (1997), eqs. 2-4) for real genes: each individual i gets a trial x_r1 + F (x_r2 - x_r3) crossed
// binomially with x_i at crossover_rate, and the trial replaces x_i only when it is not worse
// (one-to-one survivor selection instead of parent selection and elites).
// pcx, undx and spx are multi-parent operators whose offspring follow the parents' geometry
// rather than the coordinate axes (rotation invariant; docs/ga.md, "Rotation-invariant
// recombination"); they run in a steady-state generation model (g3 or mgg):
//   pcx: parent-centric recombination (Deb, Anand and Joshi, "A computationally efficient
//        evolutionary algorithm for real-parameter optimization", Evol. Comput. 10(4), 2002),
//        ga/detail/parent_centric_crossover.hpp;
//   undx: unimodal normal distribution crossover, UNDX-m (Ono and Kobayashi 1997; Kita, Ono
//        and Kobayashi 1999), ga/detail/unimodal_normal_crossover.hpp;
//   spx: simplex crossover (Tsutsui, Yamamura and Higuchi 1999), ga/detail/simplex_crossover.hpp.
enum class crossover_method { n_point, uniform, sbx, blx, de, pcx, undx, spx };

// generational: the whole population is replaced every generation (minus the elites).
// g3: Deb et al.'s generalized generation gap (2002, sec. 4): a family step takes the best
// individual as index parent plus parents - 1 others at random, makes `offspring` children with
// the multi-parent crossover, draws `replaced` members at random and puts the best `replaced` of
// (those members + children) in their places. Steady state: a step evaluates `offspring`
// candidates, and a generation is ceil(population / offspring) steps, i.e. about `population`
// evaluations as under the generational model, so that migration intervals, generation and
// stall limits, checkpoints and progress reports mean the same work under either model (and
// the islands synchronise every few thousand evaluations, not every few dozen). The "best" is
// the island's order (values, or Deb's rules / the epsilon level).
// mgg: the minimal generation gap of Satoh, Yamamura and Kobayashi (1996), the model UNDX was
// designed for (Ono and Kobayashi 1997; Kita, Ono and Kobayashi 1999): a family step draws
// `parents` members at random (no best-parent bias; pcx centres its children on the first
// drawn), makes `offspring` children, and the family is the first two drawn parents and the
// children; the family's best and one other member drawn by rank-based roulette (weight
// family size - rank, rank 1 for the best) take the two parents' places. `replaced` is not
// used (always 2). Generations count as under g3 (ceil(population / offspring) steps).
enum class generation_model { generational, g3, mgg };

// The metric pcx draws its children in (ga/detail/learned_metric.hpp):
//   isotropic: Deb et al.'s PCX, noise of the same spread in every direction across d;
//   learned:   PCX in the coordinates u = C^{-1/2} x of a metric C the island learns from the
//              ranks of its own children (a rank-mu update of the weighted best half of every
//              `metric_interval` children, Hansen's CMA-ES rule). On an ill-conditioned valley
//              C turns towards the inverse Hessian's shape and the children follow the valley.
enum class metric_model { isotropic, learned };

// The square root of a learned metric C that maps the children's steps from u to x:
//   symmetric: C^{1/2} = V Lambda^{1/2} V^T from an eigen-decomposition (9-10 n^3 flops), applied
//              by full n x n products;
//   cholesky:  the lower Cholesky factor L (C = L L^T, n^3 / 3 flops), applied by triangular
//              products and solves (half the flops). Any root R with R R^T = C gives children of
//              the same distribution in x (PCX is rotation invariant in u, and R differs from
//              C^{1/2} by a rotation of u), and the update is written in x, so the two differ
//              in the draws' bits and the cost (Krause, Arbones and Igel, "CMA-ES with Optimal
//              Covariance Update and Storage Complexity", NIPS 2016, sec. 3). The rotation
//              between L and C^{1/2} depends on the coordinates, so a run on a rotated problem
//              is no longer the rotated run draw by draw, only in distribution.
enum class metric_root { symmetric, cholesky };

// bit_flip is for binary/Gray genomes (per-bit rate, positions drawn by geometric skips);
// polynomial and gaussian are for real genes (per-gene rate).
enum class mutation_method { bit_flip, polynomial, gaussian };

struct ga_options {
  // Individuals per island (>= 2). Every generation evaluates population - elites offspring
  // (g3: offspring_per_generation()).
  int population = 100;

  encoding genes = encoding::real;
  // Bits per variable for binary/Gray genomes, 1..32.
  int bits_per_variable = 16;

  selection_method selection = selection_method::tournament;
  int tournament_size = 3;     // >= 1 (1 is random selection)
  double rank_pressure = 1.8;  // linear ranking, in [1, 2]

  crossover_method crossover = crossover_method::sbx;
  // Probability that a pair of parents is crossed (otherwise the children are copies).
  double crossover_rate = 0.9;
  int crossover_points = 2;   // n for n_point, 1..(genome length - 1)
  double uniform_swap = 0.5;  // per-position swap probability of uniform crossover
  double sbx_eta = 20.0;      // SBX distribution index (larger: children nearer the parents)
  double blx_alpha = 0.5;     // BLX-alpha extension of the parents' interval
  double de_weight = 0.5;     // F of de, in (0, 2]

  // The g3 (or mgg) generation model and its multi-parent crossovers (pcx, undx, spx); the
  // defaults are
  // Deb et al.'s G3-PCX (2002, sec. 5): mu = 3 parents, lambda = 2 children, r = 2 replaced.
  generation_model model = generation_model::generational;
  int parents = 3;    // mu: >= 2 (pcx, spx), >= 3 (undx); <= population
  int offspring = 2;  // lambda: children per g3/mgg family step, 1..population
  int replaced = 2;   // r: members replaced per g3 family step, 1..population (mgg: always 2)
  // pcx: spread along the index parent's direction from the centroid (sigma_zeta) and across it
  // (sigma_eta, times the mean distance of the other parents from that line); Deb et al. 0.1.
  double pcx_sigma_zeta = 0.1;
  double pcx_sigma_eta = 0.1;
  // pcx with the g3 model: the metric its children are drawn in (see metric_model).
  metric_model metric = metric_model::isotropic;
  // learned: children ranked per update, >= 2; 0 selects 4 + floor(3 ln n) (CMA-ES's lambda).
  int metric_interval = 0;
  // learned: weight of each update, in (0, 1]; 0 selects CMA-ES's rank-mu rate
  // 2 (mu_eff - 2 + 1 / mu_eff) / ((n + 2)^2 + mu_eff) for the weights of the best half.
  double metric_rate = 0.0;
  // learned: keep each island's metric from one run of the model to the next (same dimension):
  // range runs and successive solves that search one valley need not relearn its shape; off,
  // every run starts at C = I.
  bool metric_carry = false;
  // learned: eigen-decompose C every metric_lazy times CMA-ES's lazy interval (max(1, 1 /
  // (10 n c)) updates), >= 1; larger: cheaper updates drawn with an older root of C.
  int metric_lazy = 1;
  // learned: the root of C the children are mapped by (see metric_root). Symmetric keeps a
  // run's points the rotated points of the unrotated run (path by path); cholesky keeps only
  // their distribution, for about half the flops per child (the Gauss solver's default).
  metric_root metric_root_kind = metric_root::symmetric;
  // undx: spread along the primary parents' differences (sigma_xi) and across their subspace
  // (sigma_eta, times the distance of the last parent from it); <= 0 selects Kita et al.'s
  // 1 / sqrt(parents - 1) and 0.35 / sqrt(max(1, n - parents + 1)).
  double undx_sigma_xi = 0.0;
  double undx_sigma_eta = 0.0;
  // spx: expansion of the parents' simplex about its centroid; <= 0 selects Tsutsui et al.'s
  // sqrt(parents + 1).
  double spx_epsilon = 0.0;

  mutation_method mutation = mutation_method::polynomial;
  // Per-bit rate for bit_flip.
  double bit_mutation_rate = 0.001;
  // Per-gene rate for polynomial/gaussian; negative means 1 / dimension.
  double gene_mutation_rate = -1.0;
  double polynomial_eta = 20.0;  // polynomial mutation distribution index
  double gaussian_sigma = 0.1;   // gaussian step as a fraction of the search box width

  // The best `elites` individuals survive unchanged into the next generation (0..population-1).
  int elites = 1;

  // How candidates of a problem that reports violations are compared (feasibility or epsilon;
  // penalty and multipliers compare values: the problem holds the penalty). See
  // ga/constraint_handling.hpp.
  constraint_handling constraints = constraint_handling::penalty;
  epsilon_options epsilon;  // used by constraints = epsilon

  // g3 family steps per generation: ceil(population / offspring) (see generation_model).
  int family_steps() const {
    const int lambda = std::max(offspring, 1);
    return (std::max(population, 1) + lambda - 1) / lambda;
  }
  // Candidates evaluated per generation: family_steps() * offspring with g3 (population, or up
  // to offspring - 1 more), population with de (every individual gets a trial), population -
  // elites otherwise.
  int offspring_per_generation() const {
    if (steady_state()) return family_steps() * offspring;
    return crossover == crossover_method::de ? population : population - elites;
  }
  // g3 or mgg: family steps of multi-parent recombination instead of generations.
  bool steady_state() const { return model != generation_model::generational; }
  // pcx, undx or spx: a crossover of `parents` parents for the g3 or mgg model.
  bool multi_parent() const {
    return crossover == crossover_method::pcx || crossover == crossover_method::undx ||
           crossover == crossover_method::spx;
  }

  // Throws std::invalid_argument with a message naming the field and the fix.
  void validate() const;
};

// The settings of the generalized-inverse dissertation (GIGSP), sec. 5.4 (GAucsd): 16-bit plain
// binary genes, proportional selection (SUS), two-point crossover at rate 0.6, bit mutation 0.001.
ga_options gaucsd_options();

// Deb, Anand and Joshi's G3-PCX (2002, sec. 5): population 100, the g3 model with mu = 3
// parents, lambda = 2 children and r = 2 replaced, pcx with sigma_zeta = sigma_eta = 0.1.
ga_options g3_pcx_options();

// G3-PCX with a learned metric (metric_model::learned): g3_pcx_options() with the metric on and
// sigma_eta = 0.14 (measured best of 0.07-0.2 on the ellipsoid, the double sum and the rotated
// ellipsoid at n = 20; docs/benchmarks.md).
ga_options g3_pcx_metric_options();

std::string to_string(encoding e);
std::string to_string(selection_method s);
std::string to_string(crossover_method c);
std::string to_string(mutation_method m);
std::string to_string(generation_model g);  // generational, g3, mgg
std::string to_string(metric_model m);      // isotropic, learned
std::string to_string(metric_root r);       // symmetric, cholesky
// Parse the names printed by to_string; throw io::option_error naming the field and listing the
// valid names.
encoding parse_encoding(const std::string& name);
selection_method parse_selection(const std::string& name);
crossover_method parse_crossover(const std::string& name);
mutation_method parse_mutation(const std::string& name);
generation_model parse_generation_model(const std::string& name);
metric_model parse_metric_model(const std::string& name);
metric_root parse_metric_root(const std::string& name);

}  // namespace kinevo::ga
